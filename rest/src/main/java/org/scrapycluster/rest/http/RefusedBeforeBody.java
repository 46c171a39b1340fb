package org.scrapycluster.rest.http;

import io.netty.handler.codec.DecoderException;

/**
 * Why a request is refused before its body is read: the body is larger than {@code JSON_MAX_DOCUMENT_BYTES} (413), the
 * request expects something other than {@code 100-continue} (417), or it came in plain HTTP to a gateway serving HTTPS
 * (400). {@link BoundedAggregator} and {@link Admission} hand it on as the
 * failed decoder result of a stand-in request, so that its answer is written in its turn among the answers of the
 * connection, after those of the requests pipelined before it (docs/rest.md#limits).
 */
final class RefusedBeforeBody extends DecoderException {

    private static final long serialVersionUID = 1L;

    private final Refusal refusal;
    private final boolean lingering;

    private RefusedBeforeBody(Refusal refusal, String reason, boolean lingering) {
        super(reason);
        this.refusal = refusal;
        this.lingering = lingering;
    }

    /**
     * A body over {@code maxBytes}.
     *
     * @param lingering whether the client may still be sending the body, so that the connection ends with a
     *                  {@link LingeringClose} after the answer; otherwise it stays open
     */
    static RefusedBeforeBody tooLarge(int maxBytes, boolean lingering) {
        return new RefusedBeforeBody(Refusal.TOO_LARGE, "The body is larger than JSON_MAX_DOCUMENT_BYTES (" + maxBytes + " bytes).",
                lingering);
    }

    /** An {@code Expect} the gateway does not meet, {@code expected}; the client may send its body all the same. */
    static RefusedBeforeBody expectation(String expected) {
        return new RefusedBeforeBody(Refusal.EXPECTATION, "Expect: " + expected, true);
    }

    /** A request in plain HTTP to a gateway serving HTTPS; the connection carries no other. */
    static RefusedBeforeBody plainHttp() {
        return new RefusedBeforeBody(Refusal.PLAIN_HTTP, "The connection did not begin with a TLS handshake.", true);
    }

    Refusal refusal() {
        return refusal;
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
