package org.scrapycluster.crawler.request;

import org.scrapycluster.common.url.InvalidUrlException;
import org.scrapycluster.common.url.UrlParts;

/**
 * A page as the requests found on it refer to it ({@link ReferrerPolicy}), worked out once for all of them: its
 * scheme, its referrer (its URL without user info, fragment and its scheme's default port) and its origin (scheme,
 * host and port, with the path {@code /}).
 *
 * @param scheme   the page URL's scheme, lower case
 * @param referrer the page as a full referrer
 * @param origin   the page as an origin referrer
 */
public record ReferringPage(String scheme, String referrer, String origin) {

    /**
     * The page at {@code url}, an absolute, escaped URL.
     *
     * @throws InvalidUrlException when the URL cannot be split or its port is not a number
     */
    public static ReferringPage of(String url) {
        UrlParts parts = UrlParts.parse(url);
        return new ReferringPage(parts.scheme(), strip(parts, false), strip(parts, true));
    }

    /** Whether the page is TLS-protected ({@code https} or {@code ftps}). */
    boolean isTls() {
        return ReferrerPolicy.isTlsScheme(scheme);
    }

    /** Whether {@code url} has the page's origin; false for a URL that cannot be read. */
    boolean isSameOrigin(String url) {
        try {
            return origin.equals(strip(UrlParts.parse(url), true));
        } catch (InvalidUrlException unreadable) {
            return false;
        }
    }

    /** As Scrapy's {@code strip_url}: no user info or fragment, the scheme's default port dropped. */
    private static String strip(UrlParts parts, boolean originOnly) {
        String netloc = parts.netloc();
        int at = netloc.lastIndexOf('@');
        if (at >= 0 && hasCredentials(netloc.substring(0, at))) {
            netloc = netloc.substring(at + 1);
        }
        int port = parts.port();
        if (isDefaultPort(parts.scheme(), port)) {
            netloc = netloc.replace(":" + port, "");
        }
        return originOnly
                ? new UrlParts(parts.scheme(), netloc, "/", "", "", "").toString()
                : new UrlParts(parts.scheme(), netloc, parts.path(), parts.params(), parts.query(), "").toString();
    }

    /** Whether user info names a user or a password (Python's {@code username or password}). */
    private static boolean hasCredentials(String userInfo) {
        int colon = userInfo.indexOf(':');
        return colon < 0 ? !userInfo.isEmpty() : userInfo.length() > 1;
    }

    private static boolean isDefaultPort(String scheme, int port) {
        return switch (scheme) {
            case "http" -> port == 80;
            case "https" -> port == 443;
            case "ftp" -> port == 21;
            default -> false;
        };
    }
}
