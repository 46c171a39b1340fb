package org.scrapycluster.common.url;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Makes a URL safe to send, as w3lib's {@code safe_url_string} (1.18), which Scrapy applies to every request
 * URL: characters that may not appear in a URL (spaces, quotes, non-ASCII — as UTF-8) are percent-escaped in
 * the path, query and fragment, an internationalised host becomes punycode and an empty port is dropped.
 * Existing escapes, the order of query arguments, the fragment and the case of the host are left alone, so
 * an already safe URL comes back unchanged.
 */
public final class UrlEscaper {

    private static final String ASCII_PROBE = "AZaz09%&=?#";

    private UrlEscaper() {
    }

    /**
     * The safe form of {@code url}.
     *
     * @throws InvalidUrlException when the URL cannot be split (an unbalanced IPv6 bracket)
     */
    public static String escape(String url) {
        return escape(url, StandardCharsets.UTF_8);
    }

    /**
     * The safe form of {@code url} found in a page of {@code pageCharset}, whose query and fragment are escaped as
     * bytes of that encoding, as w3lib escapes them given the page's encoding; the path is UTF-8 whatever the page's.
     * A character the encoding cannot write becomes the escaped character reference a browser sends (where w3lib
     * fails), and a page in an encoding that does not write ASCII as ASCII (UTF-16, UTF-32, EBCDIC) has its query in UTF-8,
     * as in a browser (docs/differences.md "A meta refresh's URL").
     *
     * @throws InvalidUrlException when the URL cannot be split (an unbalanced IPv6 bracket)
     */
    public static String escape(String url, Charset pageCharset) {
        UrlParts parts = UrlParts.split(url);
        Charset queryCharset = isUtf8(pageCharset) || !writesAsciiAsAscii(pageCharset) ? StandardCharsets.UTF_8 : pageCharset;
        return new UrlParts(parts.scheme(), HostNames.asciiNetloc(parts.netloc()), quoted(parts.path(), StandardCharsets.UTF_8),
                "", quoted(parts.query(), queryCharset), quoted(parts.fragment(), queryCharset)).toString();
    }

    private static String quoted(String part, Charset charset) {
        StringBuilder out = new StringBuilder(part.length() + 8);
        if (isUtf8(charset)) {
            PercentCodec.quote(part, 0, part.length(), PercentCodec.URL_SAFE, out);
        } else {
            PercentCodec.quote(part, PercentCodec.URL_SAFE, charset, out);
        }
        return out.toString();
    }

    private static boolean isUtf8(Charset charset) {
        return charset.equals(StandardCharsets.UTF_8);
    }

    private static boolean writesAsciiAsAscii(Charset charset) {
        return charset.canEncode()
                && Arrays.equals(ASCII_PROBE.getBytes(charset), ASCII_PROBE.getBytes(StandardCharsets.US_ASCII));
    }
}
