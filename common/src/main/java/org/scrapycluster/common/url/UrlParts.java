package org.scrapycluster.common.url;

import java.util.Locale;
import java.util.Set;

import org.scrapycluster.common.net.Port;

/**
 * A URL split into the six parts of Python's {@code urllib.parse.urlparse} — scheme, network location,
 * path, path parameters, query and fragment — with the same lenient rules, so that URLs are taken apart
 * and put together exactly as Scrapy and w3lib do. Nothing is decoded or validated beyond what Python
 * checks; {@link #toString()} reassembles the parts as {@code urlunparse}.
 *
 * <p>Before splitting, ASCII tab, CR and LF are removed and C0 controls and spaces are trimmed from both
 * ends, as the WHATWG URL standard (and w3lib 2.1) do.
 */
public record UrlParts(String scheme, String netloc, String path, String params, String query, String fragment) {

    /** Schemes whose URLs carry a network location ({@code uses_netloc}). */
    static final Set<String> USES_NETLOC = Set.of("", "ftp", "http", "gopher", "nntp", "telnet", "imap", "wais",
            "file", "mms", "https", "shttp", "snews", "prospero", "rtsp", "rtsps", "rtspu", "rsync", "svn", "svn+ssh",
            "sftp", "nfs", "git", "git+ssh", "ws", "wss");

    /** Schemes against which relative references resolve ({@code uses_relative}). */
    static final Set<String> USES_RELATIVE = Set.of("", "ftp", "http", "gopher", "nntp", "imap", "wais", "file",
            "https", "shttp", "mms", "prospero", "rtsp", "rtsps", "rtspu", "sftp", "svn", "svn+ssh", "ws", "wss");

    /** Schemes whose last path segment may carry {@code ;parameters} ({@code uses_params}). */
    static final Set<String> USES_PARAMS = Set.of("", "ftp", "hdl", "prospero", "http", "imap", "https", "shttp",
            "rtsp", "rtsps", "rtspu", "sip", "sips", "mms", "sftp", "tel");

    public UrlParts {
        requireNonNull(scheme, netloc, path, params, query, fragment);
    }

    /** Splits {@code url} as {@code urlparse(url)}, separating path parameters for the schemes that have them. */
    public static UrlParts parse(String url) {
        return parse(url, "");
    }

    /** As {@link #parse(String)}, with {@code defaultScheme} for a URL that names none. */
    public static UrlParts parse(String url, String defaultScheme) {
        UrlParts split = split(url, defaultScheme);
        if (!USES_PARAMS.contains(split.scheme) || split.path.indexOf(';') < 0) {
            return split;
        }
        String path = split.path;
        int lastSlash = path.lastIndexOf('/');
        int semicolon = path.indexOf(';', Math.max(lastSlash, 0));
        if (semicolon < 0) {
            return split;
        }
        return new UrlParts(split.scheme, split.netloc, path.substring(0, semicolon), path.substring(semicolon + 1),
                split.query, split.fragment);
    }

    /** Splits {@code url} as {@code urlsplit(url)}: path parameters stay in the path. */
    public static UrlParts split(String url) {
        return split(url, "");
    }

    private static UrlParts split(String raw, String defaultScheme) {
        String url = clean(raw);
        String scheme = defaultScheme;
        int colon = url.indexOf(':');
        if (colon > 0 && isSchemeCandidate(url, colon)) {
            scheme = scheme(url, colon);
            url = url.substring(colon + 1);
        }
        String netloc = "";
        if (url.startsWith("//")) {
            int end = url.length();
            for (int i = 2; i < url.length(); i++) {
                char c = url.charAt(i);
                if (c == '/' || c == '?' || c == '#') {
                    end = i;
                    break;
                }
            }
            netloc = url.substring(2, end);
            url = url.substring(end);
            boolean open = netloc.indexOf('[') >= 0;
            boolean close = netloc.indexOf(']') >= 0;
            if (open != close) {
                throw new InvalidUrlException("Invalid IPv6 URL", raw);
            }
        }
        String fragment = "";
        int hash = url.indexOf('#');
        if (hash >= 0) {
            fragment = url.substring(hash + 1);
            url = url.substring(0, hash);
        }
        String query = "";
        int question = url.indexOf('?');
        if (question >= 0) {
            query = url.substring(question + 1);
            url = url.substring(0, question);
        }
        return new UrlParts(scheme, netloc, url, "", query, fragment);
    }

    /** The scheme {@link #split(String)} finds in {@code url}, lower case; empty when it names none. Splits nothing. */
    public static String schemeOf(String url) {
        String clean = clean(url);
        int colon = clean.indexOf(':');
        return colon > 0 && isSchemeCandidate(clean, colon) ? scheme(clean, colon) : "";
    }

    /** {@code url[0, colon)} in lower case; the two schemes of nearly every URL without a copy. */
    private static String scheme(String url, int colon) {
        if (colon == 4 && url.startsWith("http")) {
            return "http";
        }
        if (colon == 5 && url.startsWith("https")) {
            return "https";
        }
        return url.substring(0, colon).toLowerCase(Locale.ROOT);
    }

    /** Whether {@code c} may be part of a URL scheme: an ASCII letter or digit, {@code +}, {@code -} or {@code .}. */
    public static boolean isSchemeChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.';
    }

    /**
     * Whether {@code url[0, colon)} names a scheme: only scheme characters, and (except for the literal
     * {@code http}, which Python accepts unconditionally) not followed by something that looks like a port.
     */
    private static boolean isSchemeCandidate(String url, int colon) {
        for (int i = 0; i < colon; i++) {
            if (!isSchemeChar(url.charAt(i))) {
                return false;
            }
        }
        if (colon == 4 && url.startsWith("http")) {
            return true;
        }
        for (int i = colon + 1; i < url.length(); i++) {
            char c = url.charAt(i);
            if (c < '0' || c > '9') {
                return true;
            }
        }
        return colon + 1 == url.length();
    }

    /** Removes ASCII tab, CR and LF and trims C0 controls and spaces from both ends. */
    static String clean(String url) {
        int start = 0;
        int end = url.length();
        while (start < end && url.charAt(start) <= ' ') {
            start++;
        }
        while (end > start && url.charAt(end - 1) <= ' ') {
            end--;
        }
        boolean hasBreaks = false;
        for (int i = start; i < end && !hasBreaks; i++) {
            char c = url.charAt(i);
            hasBreaks = c == '\t' || c == '\n' || c == '\r';
        }
        if (!hasBreaks) {
            return start == 0 && end == url.length() ? url : url.substring(start, end);
        }
        StringBuilder out = new StringBuilder(end - start);
        for (int i = start; i < end; i++) {
            char c = url.charAt(i);
            if (c != '\t' && c != '\n' && c != '\r') {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * Python's {@code urldefrag(url)[0]}: {@code url} without its fragment, put back together as {@code urlunparse}
     * when it has a {@code #} ({@code http://h/p?#f} gives {@code http://h/p}), else as it is.
     */
    public static String withoutFragment(String url) {
        if (url.indexOf('#') < 0) {
            return url;
        }
        UrlParts parts = parse(url);
        return new UrlParts(parts.scheme, parts.netloc, parts.path, parts.params, parts.query, "").toString();
    }

    /** The host as Python's {@code hostname}: no user info, port or brackets, lower case; empty when there is none. */
    public String hostname() {
        int[] host = hostRange(netloc);
        return netloc.substring(host[0], host[1]).toLowerCase(Locale.ROOT);
    }

    /**
     * The explicit port, or -1 when the network location names none.
     *
     * @throws InvalidUrlException when the port is not a number from 0 to 65535
     */
    public int port() {
        int[] host = hostRange(netloc);
        int colon = host[1];
        if (colon < netloc.length() && netloc.charAt(colon) == ']') {
            colon++;
        }
        if (colon >= netloc.length() || netloc.charAt(colon) != ':') {
            return -1;
        }
        String digits = netloc.substring(colon + 1);
        if (digits.isEmpty()) {
            return -1;
        }
        return Port.parse(digits)
                .orElseThrow(() -> new InvalidUrlException("Port is not a number from 0 to " + Port.MAX, toString()));
    }

    /**
     * Where the host name lies in a network location: {@code [start, end)}, without user info, brackets or
     * port, following Python's {@code _hostinfo}.
     */
    static int[] hostRange(String netloc) {
        int start = netloc.lastIndexOf('@') + 1;
        int open = netloc.indexOf('[', start);
        if (open >= 0) {
            int close = netloc.indexOf(']', open);
            return new int[] {open + 1, close < 0 ? netloc.length() : close};
        }
        int colon = netloc.indexOf(':', start);
        return new int[] {start, colon < 0 ? netloc.length() : colon};
    }

    /** The URL put back together as {@code urlunparse}; empty parameters, query and fragment leave no separator. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(scheme.length() + netloc.length() + path.length() + params.length()
                + query.length() + fragment.length() + 8);
        if (!scheme.isEmpty()) {
            out.append(scheme).append(':');
        }
        String pathAndParams = params.isEmpty() ? path : path + ';' + params;
        boolean withNetloc = !netloc.isEmpty()
                || !scheme.isEmpty() && USES_NETLOC.contains(scheme) && !pathAndParams.startsWith("//");
        if (withNetloc) {
            out.append("//").append(netloc);
            if (!pathAndParams.isEmpty() && pathAndParams.charAt(0) != '/') {
                out.append('/');
            }
        }
        out.append(pathAndParams);
        if (!query.isEmpty()) {
            out.append('?').append(query);
        }
        if (!fragment.isEmpty()) {
            out.append('#').append(fragment);
        }
        return out.toString();
    }

    private static void requireNonNull(String... parts) {
        for (String part : parts) {
            if (part == null) {
                throw new NullPointerException("URL parts are empty strings, never null");
            }
        }
    }
}
