package org.scrapycluster.crawler.fetch;

import java.util.Objects;

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
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("proxy port must be from 1 to 65535: " + port);
        }
        if ((username == null) != (password == null)) {
            throw new IllegalArgumentException("give both proxy user name and password, or neither");
        }
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
