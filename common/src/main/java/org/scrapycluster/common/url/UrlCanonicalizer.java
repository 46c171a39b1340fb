package org.scrapycluster.common.url;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The canonical form of a URL, as w3lib's {@code canonicalize_url} (the version Scrapy 1.5 and Scrapy
 * Cluster 1.3 run, w3lib 1.18) computes it for request fingerprints and link extraction:
 *
 * <ul>
 *   <li>scheme and network location in lower case, an internationalised host in punycode, an empty port
 *       ({@code "host:"}) dropped; explicit ports, default ones included, are kept;</li>
 *   <li>the path percent-decoded and re-encoded, so escapes are upper case, escapes of characters that need
 *       none are decoded, and other characters (non-ASCII as UTF-8) are escaped; {@code %2F} and {@code %3F}
 *       stay escaped; an empty path becomes {@code /};</li>
 *   <li>query arguments split on {@code &} and {@code ;}, decoded, sorted by name then value (as bytes),
 *       blank values kept ({@code ?a} becomes {@code ?a=}), re-encoded form style (space as {@code +});</li>
 *   <li>the fragment removed, unless asked to keep it.</li>
 * </ul>
 *
 * <p>Three deliberate differences from w3lib 1.18, each a fix w3lib itself made later: {@code %23} in a path
 * stays escaped (1.18 decodes it to {@code #}, which turns the rest of the path into a fragment; fixed in
 * w3lib 2.0); IDNA is applied to the host only (1.18 applies it to the whole network location, which
 * mangles user info and ports next to a non-ASCII host); tab, CR and LF are removed and C0 controls and spaces
 * trimmed from both ends (w3lib 2.1.1). Query escaping escapes {@code ~}, as the original's Python 3.6 does (3.7 keeps
 * it), so that a Python crawler of the cluster gets the same fingerprint. Every other
 * input gets w3lib 1.18's form (docs/differences.md "URLs and request fingerprints").
 */
public final class UrlCanonicalizer {

    private UrlCanonicalizer() {
    }

    /** The canonical form of {@code url}, without its fragment. */
    public static String canonicalize(String url) {
        return canonicalize(url, false);
    }

    /**
     * The canonical form of {@code url}.
     *
     * @param keepFragments keep the fragment (escaped, otherwise unchanged) instead of removing it
     * @throws InvalidUrlException when the URL cannot be split (an unbalanced IPv6 bracket)
     */
    public static String canonicalize(String url, boolean keepFragments) {
        return isPlainCanonical(url) ? url : canonicalizeParts(url, keepFragments);
    }

    /** The canonical form of {@code url}, worked out part by part. */
    static String canonicalizeParts(String url, boolean keepFragments) {
        UrlParts parts = UrlParts.parse(url);
        String netloc = HostNames.asciiNetloc(parts.netloc()).toLowerCase(Locale.ROOT);
        String path = canonicalPath(parts.path());
        String params = quote(parts.params());
        String query = canonicalQuery(parts.query());
        String fragment = keepFragments ? quote(parts.fragment()) : "";
        return new UrlParts(parts.scheme(), netloc, path, params, query, fragment).toString();
    }

    /**
     * Whether {@code url} is its own canonical form because it is {@code http} or {@code https}, a lower-case
     * ASCII host with an optional port, and a path of characters that need no escape, without escapes,
     * parameters, query or fragment: most links of a crawl, which are then not split and joined again.
     */
    public static boolean isPlainCanonical(String url) {
        int length = url.length();
        int at = url.startsWith("http://") ? 7 : url.startsWith("https://") ? 8 : -1;
        if (at < 0) {
            return false;
        }
        int host = at;
        while (at < length && isHostChar(url.charAt(at))) {
            at++;
        }
        if (at == host) {
            return false;
        }
        if (at < length && url.charAt(at) == ':') {
            int port = ++at;
            while (at < length && url.charAt(at) >= '0' && url.charAt(at) <= '9') {
                at++;
            }
            if (at == port) {
                return false;
            }
        }
        if (at >= length || url.charAt(at) != '/') {
            return false;
        }
        for (; at < length; at++) {
            if (!isPlainPathChar(url.charAt(at))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The network location ({@code host} or {@code host:port}) of a URL for which {@link #isPlainCanonical} holds,
     * read from its text rather than split out: what lies between {@code ://} and its path.
     */
    public static String plainNetloc(String url) {
        int start = url.indexOf("://") + 3;
        return url.substring(start, url.indexOf('/', start));
    }

    /**
     * Whether {@code c} may stand in a plain path: one that needs no escape and holds no escape, parameters, query
     * or fragment.
     */
    static boolean isPlainPathChar(char c) {
        return c < 0x80 && c != '%' && c != ';' && c != '?' && c != '#' && PercentCodec.PATH_SAFE[c];
    }

    private static boolean isHostChar(char c) {
        return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-';
    }

    /**
     * {@code canonicalize(url)} from {@code canonicalize(url, true)}, without canonicalising again: a canonical
     * URL has no {@code #} before its fragment's (every other one is escaped, and a host holds none:
     * {@link HostNames#toAscii}), so it ends there.
     */
    public static String withoutFragment(String canonicalWithFragment) {
        int hash = canonicalWithFragment.indexOf('#');
        return hash < 0 ? canonicalWithFragment : canonicalWithFragment.substring(0, hash);
    }

    private static String quote(String part) {
        if (part.isEmpty()) {
            return part;
        }
        StringBuilder out = new StringBuilder(part.length() + 8);
        PercentCodec.quote(part, 0, part.length(), PercentCodec.URL_SAFE, out);
        return out.toString();
    }

    /**
     * w3lib escapes the path, decodes every escape except {@code %2F} and {@code %3F} to bytes, and escapes
     * the bytes again; this does the same in one pass.
     */
    static String canonicalPath(String path) {
        int length = path.length();
        StringBuilder out = new StringBuilder(length + 8);
        for (int i = 0; i < length; i++) {
            char c = path.charAt(i);
            if (c == '%' && PercentCodec.isEscape(path, i, length)) {
                int b = PercentCodec.hexValue(path.charAt(i + 1)) << 4 | PercentCodec.hexValue(path.charAt(i + 2));
                if (b == '/' || b == '?' || b >= 0x80 || !PercentCodec.PATH_SAFE[b]) {
                    PercentCodec.appendEscape(b, out);
                } else {
                    out.append((char) b);
                }
                i += 2;
            } else if (c < 0x80) {
                if (PercentCodec.PATH_SAFE[c]) {
                    out.append(c);
                } else {
                    PercentCodec.appendEscape(c, out);
                }
            } else {
                int end = Character.isHighSurrogate(c) && i + 1 < length ? i + 2 : i + 1;
                PercentCodec.quote(path, i, end, PercentCodec.PATH_SAFE, out);
                i = end - 1;
            }
        }
        return out.isEmpty() ? "/" : out.toString();
    }

    /** Query arguments decoded to bytes, sorted by name and value, and encoded again form style. */
    static String canonicalQuery(String query) {
        if (query.isEmpty()) {
            return query;
        }
        List<byte[][]> arguments = new ArrayList<>();
        int length = query.length();
        int start = 0;
        while (start <= length) {
            int end = start;
            while (end < length && query.charAt(end) != '&' && query.charAt(end) != ';') {
                end++;
            }
            if (end > start) {
                int equals = start;
                while (equals < end && query.charAt(equals) != '=') {
                    equals++;
                }
                byte[] name = PercentCodec.formDecode(query, start, equals);
                byte[] value = equals < end ? PercentCodec.formDecode(query, equals + 1, end) : new byte[0];
                arguments.add(new byte[][] {name, value});
            }
            start = end + 1;
        }
        if (arguments.size() > 1) {
            arguments.sort((a, b) -> {
                int byName = Arrays.compareUnsigned(a[0], b[0]);
                return byName != 0 ? byName : Arrays.compareUnsigned(a[1], b[1]);
            });
        }
        StringBuilder out = new StringBuilder(length + 8);
        for (byte[][] argument : arguments) {
            if (!out.isEmpty()) {
                out.append('&');
            }
            PercentCodec.quotePlus(argument[0], out);
            out.append('=');
            PercentCodec.quotePlus(argument[1], out);
        }
        return out.toString();
    }
}
