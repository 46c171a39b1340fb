package org.scrapycluster.common.url;

/** A URL that cannot be split into its parts (for example an unbalanced IPv6 bracket) or has an unusable port. */
public final class InvalidUrlException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public InvalidUrlException(String message, String url) {
        super(message + ": " + url);
    }
}
