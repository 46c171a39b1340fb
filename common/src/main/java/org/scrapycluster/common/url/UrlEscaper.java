package org.scrapycluster.common.url;

/**
 * Makes a URL safe to send, as w3lib's {@code safe_url_string} (1.18), which Scrapy applies to every request
 * URL: characters that may not appear in a URL (spaces, quotes, non-ASCII — as UTF-8) are percent-escaped in
 * the path, query and fragment, an internationalised host becomes punycode and an empty port is dropped.
 * Existing escapes, the order of query arguments, the fragment and the case of the host are left alone, so
 * an already safe URL comes back unchanged.
 */
public final class UrlEscaper {

    private UrlEscaper() {
    }

    /**
     * The safe form of {@code url}.
     *
     * @throws InvalidUrlException when the URL cannot be split (an unbalanced IPv6 bracket)
     */
    public static String escape(String url) {
        UrlParts parts = UrlParts.split(url);
        StringBuilder path = new StringBuilder(parts.path().length() + 8);
        PercentCodec.quote(parts.path(), 0, parts.path().length(), PercentCodec.URL_SAFE, path);
        StringBuilder query = new StringBuilder(parts.query().length() + 8);
        PercentCodec.quote(parts.query(), 0, parts.query().length(), PercentCodec.URL_SAFE, query);
        StringBuilder fragment = new StringBuilder(parts.fragment().length() + 8);
        PercentCodec.quote(parts.fragment(), 0, parts.fragment().length(), PercentCodec.URL_SAFE, fragment);
        return new UrlParts(parts.scheme(), HostNames.asciiNetloc(parts.netloc()), path.toString(), "",
                query.toString(), fragment.toString()).toString();
    }
}
