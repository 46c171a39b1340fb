package org.scrapycluster.common.request;

/**
 * One reason a request is invalid, said for the person who sent it:
 * {@code maxdepth: must be at most 3, was 5}.
 *
 * @param path the field: {@code maxdepth}, {@code allow_regex[1]}, {@code attrs.user}; {@code request} for the whole request
 * @param message what is wrong with it
 */
public record Violation(String path, String message) {

    @Override
    public String toString() {
        return path + ": " + message;
    }
}
