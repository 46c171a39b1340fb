package org.scrapycluster.crawler.fetch;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

import org.scrapycluster.common.net.Port;
import org.scrapycluster.common.url.UrlParts;

/**
 * An HTTP proxy every fetch goes through: plain HTTP requests are sent to it in absolute form, HTTPS is
 * tunnelled with CONNECT. Credentials, when given, are sent as HTTP Basic.
 *
 * @param username null for none
 * @param password null for none
 */
public record ProxyConfig(String host, int port, String username, String password) {

    public ProxyConfig {
        Objects.requireNonNull(host, "proxy host");
        if (!Port.isConnectable(port)) {
            throw new IllegalArgumentException("proxy port must be from 1 to " + Port.MAX + ": " + port);
        }
        if ((username == null) != (password == null)) {
            throw new IllegalArgumentException("give both proxy user name and password, or neither");
        }
    }

    /**
     * The proxy of {@code http://[user:password@]host:port}, the form of {@code DOWNLOAD_PROXY}; user name and
     * password may be percent-encoded.
     *
     * @throws IllegalArgumentException when {@code url} is not of that form, saying why; the message shows the URL
     *                                  without its password
     */
    public static ProxyConfig parse(String url) {
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            // the exception's own message quotes the whole input, password included
            throw new IllegalArgumentException("not a URL: " + e.getReason() + " at index " + e.getIndex() + " of " + withoutPassword(url));
        }
        if (!"http".equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("must be an http:// URL (the proxy is spoken to in plain HTTP), was " + withoutPassword(url));
        }
        if (uri.getHost() == null || uri.getPort() < 0) {
            throw new IllegalArgumentException("must name the proxy's host and port, as http://host:port, was " + withoutPassword(url));
        }
        String path = uri.getRawPath();
        if ((path != null && !path.isEmpty() && !path.equals("/")) || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("must be only http://[user:password@]host:port, was " + withoutPassword(url));
        }
        // read as the fetcher reads a page's host: an IPv6 address without the brackets of its URL ([::1]), lower case
        String host = UrlParts.split(url.strip()).hostname();
        String userInfo = uri.getRawUserInfo();
        if (userInfo == null) {
            return of(host, uri.getPort());
        }
        int colon = userInfo.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("give the proxy's user name and password as user:password@, or neither");
        }
        return new ProxyConfig(host, uri.getPort(), decode(userInfo.substring(0, colon)), decode(userInfo.substring(colon + 1)));
    }

    /**
     * {@code url} with the text between the first colon after {@code //} and the last {@code @} replaced by
     * {@code ***}, for error messages: whatever the user information holds (a raw {@code /} or {@code @} in the
     * password included), it is inside that span; a URL with no {@code @} is given as it is.
     */
    static String withoutPassword(String url) {
        int start = url.indexOf("//");
        int colon = start < 0 ? -1 : url.indexOf(':', start + 2);
        int at = url.lastIndexOf('@');
        return colon < 0 || at < colon ? url : url.substring(0, colon + 1) + "***" + url.substring(at);
    }

    private static String decode(String part) {
        return URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** A proxy without credentials. */
    public static ProxyConfig of(String host, int port) {
        return new ProxyConfig(host, port, null, null);
    }

    public boolean hasCredentials() {
        return username != null;
    }

    @Override
    public String toString() {
        return "ProxyConfig[" + host + ":" + port + (hasCredentials() ? ", user " + username : "") + "]";
    }
}
