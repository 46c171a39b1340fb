package org.scrapycluster.crawler.fetch;

/** What a connection is good for: scheme, host (lower case) and port. Per-host limits and pools are per key. */
record HostKey(boolean https, String host, int port) {

    /** The Host header value: the port only when it is not the scheme's default. */
    String hostHeader() {
        String name = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return port == (https ? 443 : 80) ? name : name + ":" + port;
    }

    @Override
    public String toString() {
        return (https ? "https://" : "http://") + hostHeader();
    }
}
