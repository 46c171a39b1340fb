package org.scrapycluster.common.zookeeper;

/**
 * Something wrong in a domain config document, with where it is: {@code domains.cnn.com.hits:
 * must be a whole number, was 'ten'}.
 *
 * @param path where in the document: {@code blacklist[2]}, {@code domains.cnn.com.window}, or {@code document}
 * @param message what is wrong, for a person
 */
public record ConfigProblem(String path, String message) {

    @Override
    public String toString() {
        return path + ": " + message;
    }
}
