package org.scrapycluster.crawler.fetch;

/**
 * Why a fetch produced no usable response, for retry decisions and metrics. {@link #retryable()} follows
 * Scrapy's retry middleware: network failures and timeouts are worth another attempt; a refused address,
 * a malformed request, an oversized body or a certificate problem are not.
 */
public enum FetchError {
    /** The host name could not be resolved. */
    DNS(true),
    /** Nothing accepted the connection (refused, unreachable, or refused by the proxy). */
    CONNECT_REFUSED(true),
    /**
     * The connection (TCP, proxy tunnel or TLS handshake) was not established in time: by the connect timeout, or by the
     * total timeout when that comes first.
     */
    CONNECT_TIMEOUT(true),
    /**
     * No byte arrived for the read timeout while waiting for or reading the response, or none of the response by the total
     * timeout when that comes first: a host that took the connection and said nothing.
     */
    READ_TIMEOUT(true),
    /** The response came, but not all of it within the total timeout. */
    TOTAL_TIMEOUT(true),
    /** The connection was reset or closed before the response was complete. */
    RESET(true),
    /** TLS failed: untrusted or mismatched certificate, or a handshake error. */
    TLS(false),
    /** The body exceeded the size limit; the read was aborted and the result holds the part read. */
    TOO_LARGE(false),
    /** The server's answer was not valid HTTP/1.1, or its content encoding could not be decoded. */
    PROTOCOL(true),
    /** The host resolved to an address the operator forbids (private, loopback, link-local…). */
    FORBIDDEN_ADDRESS(false),
    /** The request cannot be sent: not an http(s) URL, no host, an unusable port, or a malformed header. */
    INVALID_REQUEST(false),
    /** Another network I/O failure. */
    IO(true),
    /** The fetcher was closed, or the caller cancelled the fetch. */
    CANCELLED(false);

    private final boolean retryable;

    FetchError(boolean retryable) {
        this.retryable = retryable;
    }

    /** Whether another attempt may succeed. */
    public boolean retryable() {
        return retryable;
    }

    /**
     * Whether the fetch failed before its host took a connection: the name did not resolve, nothing accepted the
     * connection, or none was made in time. Another path of the same origin would have failed the same way then.
     */
    public boolean unconnected() {
        return this == DNS || this == CONNECT_REFUSED || this == CONNECT_TIMEOUT;
    }

    /** Whether the fetch ran out of {@code DOWNLOAD_TIMEOUT}: connecting, waiting for a byte, or in all. */
    public boolean timedOut() {
        return this == CONNECT_TIMEOUT || this == READ_TIMEOUT || this == TOTAL_TIMEOUT;
    }
}
