package org.scrapycluster.rest.http;

import io.netty.handler.codec.DecoderException;

/**
 * Why a request is refused before its body is read: the body is larger than
 * {@code JSON_MAX_DOCUMENT_BYTES}. {@link BoundedAggregator} hands it on as the failed decoder result
 * of a stand-in request, so that its 413 is written in its turn among the answers of the
 * connection, after those of the requests pipelined before it (docs/rest.md#limits).
 */
final class BodyTooLarge extends DecoderException {

    private static final long serialVersionUID = 1L;

    private final boolean lingering;

    /**
     * @param lingering whether the client may still be sending the body, so that the connection
     *                  ends with a {@link LingeringClose} after the answer; otherwise it stays open
     */
    BodyTooLarge(int maxBytes, boolean lingering) {
        super(message(maxBytes));
        this.lingering = lingering;
    }

    /** The reason a body over {@code maxBytes} is refused, as the 413's envelope gives it. */
    static String message(int maxBytes) {
        return "The body is larger than JSON_MAX_DOCUMENT_BYTES (" + maxBytes + " bytes).";
    }

    boolean lingering() {
        return lingering;
    }

    /** A refusal, not a fault: no stack trace to fill. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
