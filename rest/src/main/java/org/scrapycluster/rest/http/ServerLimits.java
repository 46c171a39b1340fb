package org.scrapycluster.rest.http;

import java.time.Duration;

/**
 * What one client may hold of the gateway's HTTP server.
 *
 * @param maxBodyBytes   the largest request body ({@code JSON_MAX_DOCUMENT_BYTES})
 * @param idleTimeout    how long a connection may send nothing before it is closed; longer than an
 *                       endpoint may take to answer
 * @param headerTimeout  how long a connection has to send a request's complete headers, from its
 *                       opening or from the answer to its previous request ({@code REST_HEADER_TIMEOUT})
 * @param bodyTimeout    how long a request's body may take to arrive in full, from its headers ({@code REST_BODY_TIMEOUT})
 * @param sendTimeout    how long an answer may take to be taken by its client, from its writing ({@code REST_SEND_TIMEOUT})
 * @param maxConnections connections open at once; more are answered 503 and closed ({@code REST_MAX_CONNECTIONS})
 * @param maxPipelined   requests of one connection being answered at once; the connection is not
 *                       read while it has that many ({@code REST_MAX_PIPELINED_REQUESTS})
 */
public record ServerLimits(int maxBodyBytes, Duration idleTimeout, Duration headerTimeout, Duration bodyTimeout, Duration sendTimeout,
        int maxConnections, int maxPipelined) {

    public ServerLimits {
        if (maxBodyBytes < 0 || maxConnections < 1 || maxPipelined < 1 || !idleTimeout.isPositive() || !headerTimeout.isPositive()
                || !bodyTimeout.isPositive() || !sendTimeout.isPositive()) {
            throw new IllegalArgumentException("limits must be positive: " + maxBodyBytes + ", " + idleTimeout + ", "
                    + headerTimeout + ", " + bodyTimeout + ", " + sendTimeout + ", " + maxConnections + ", " + maxPipelined);
        }
    }
}
