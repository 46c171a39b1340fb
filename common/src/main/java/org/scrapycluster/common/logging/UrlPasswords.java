package org.scrapycluster.common.logging;

import java.util.regex.Pattern;

/**
 * Text as a log line shows it: the password of each URL in it ({@code scheme://user:password@host}) replaced by
 * {@code ***}, the user name kept. A crawl's URL may carry a site's credentials, which whoever reads the logs could
 * otherwise use; the URL itself goes on to the site and into the result unchanged (docs/security.md).
 */
final class UrlPasswords {

    /** What a log line shows in place of a password. */
    static final String HIDDEN = "***";

    /**
     * A scheme, {@code ://}, a user name and its colon, then the password up to the authority's last {@code @}: a raw
     * {@code @} in a password is part of it, as a URL parser takes the last one before the path for the host's start.
     */
    private static final Pattern PASSWORD = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://[^\\s/?#@:\"'<>\\\\]*:)[^\\s/?#\"'<>\\\\]*@");

    private UrlPasswords() {
    }

    /** {@code text} with every URL's password hidden; {@code text} itself when it holds none (or is null). */
    static String hidden(String text) {
        if (text == null || text.indexOf('@') < 0 || !text.contains("://")) {
            return text;
        }
        return PASSWORD.matcher(text).replaceAll("$1" + HIDDEN + "@");
    }
}
