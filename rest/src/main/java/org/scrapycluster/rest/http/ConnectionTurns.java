package org.scrapycluster.rest.http;

import java.util.concurrent.CompletableFuture;

/**
 * The answers one connection owes, in the order of its requests, and whether an answer has ended it. Once a request
 * asks for the connection to close ({@code Connection: close}, HTTP/1.0), or the gateway closes it after an answer
 * (a refusal that cannot be followed, a stopping gateway), no request read after it on the connection is run: its
 * answer could not reach the client, which, reading the closing answer, takes the requests after it as never made
 * (RFC 9112 §9.6). Thread-safe: requests are taken on the connection's event loop, answered on the gateway's executor.
 */
final class ConnectionTurns {

    private CompletableFuture<Void> last;
    private int owed;
    private boolean closing;
    /** Whether the connection ends once the answers it owes are written ({@link #endOnceAnswered()}). */
    private boolean ending;

    /**
     * Takes a request read on the connection: whether it is to be answered; false once a request before it, or an
     * answer written, ends the connection.
     *
     * @param closes whether the request's own answer ends the connection
     */
    synchronized boolean take(boolean closes) {
        if (closing) {
            return false;
        }
        owed++;
        closing = closes;
        return true;
    }

    /**
     * Counts an answer as written, and tells whether it ends the connection: when its request was taken as closing it,
     * or when the connection is {@link #endOnceAnswered() ending} or {@code draining} and no request taken after it is
     * still owed an answer (the last of them closes it then).
     */
    synchronized boolean answered(boolean closes, boolean draining) {
        owed--;
        boolean last = (ending || draining) && owed == 0;
        if (last) {
            closing = true;
        }
        return closes || last;
    }

    /**
     * Ends the connection once the answers it owes are written, taking no request after them: the last of them closes it.
     *
     * @return whether none is owed now, so that the caller closes it, after the last answer written
     */
    synchronized boolean endOnceAnswered() {
        closing = true;
        ending = true;
        return owed == 0;
    }

    /** The connection's last answer in turn, after which the next is written; null before the first. */
    CompletableFuture<Void> last() {
        return last;
    }

    /** Sets the connection's last answer in turn. Called on the connection's event loop only, as {@link #last()} is. */
    void last(CompletableFuture<Void> answer) {
        last = answer;
    }
}
