package org.scrapycluster.rest.http;

import io.netty.handler.codec.DecoderResult;

/**
 * What a request's head says about it, checked once ({@link Dispatcher#checkHead}): whether the gateway answers for its
 * {@code Host}, and who presents its API key. {@link Admission} checks the head before the body is read and sets the
 * result as the request's decoder result (the head decoded fine): the aggregator hands the whole request on with the
 * head's decoder result, so the {@link Dispatcher} answers from it, and the endpoint learns its caller from it
 * ({@link HttpCall#caller()}), without hashing the key or reading the key files again. A failure found later in the
 * body replaces it, and such a request is refused before it is dispatched.
 *
 * <p>The key of a call to a path that needs one is looked at here, before the body is read. On an open path it is
 * looked at only when the endpoint asks who the caller is ({@code /health} shows its details to a valid key), and then
 * once; the web UI's files never ask.
 */
final class HeadCheck extends DecoderResult {

    private final boolean hostAllowed;
    private final boolean open;
    private final Callers callers;
    private final String apiKey;
    private Caller caller;

    /**
     * @param open    whether the path is open: then the key is looked at only when {@link #caller()} is asked
     * @param callers who tells the caller from {@code apiKey}
     * @param apiKey  the key presented, or null
     */
    HeadCheck(boolean hostAllowed, boolean open, Callers callers, String apiKey) {
        super(SIGNAL_SUCCESS);
        this.hostAllowed = hostAllowed;
        this.open = open;
        this.callers = callers;
        this.apiKey = apiKey;
        if (hostAllowed && !open) {
            caller = callers.identify(apiKey);
        }
    }

    /**
     * The refusal the call earns whatever its body: {@link Refusal#HOST} for a host the gateway does not answer for,
     * {@link Refusal#UNAUTHORIZED} when the path needs a key and none valid is presented; null when it earns none.
     */
    Refusal refusal() {
        if (!hostAllowed) {
            return Refusal.HOST;
        }
        return !open && caller().access() == Access.NONE ? Refusal.UNAUTHORIZED : null;
    }

    /** Whether the path is open to anyone: then no key is needed, and none is checked against the route. */
    boolean open() {
        return open;
    }

    /** Who presents the key, identified at most once for the request. */
    synchronized Caller caller() {
        if (caller == null) {
            caller = callers.identify(apiKey);
        }
        return caller;
    }
}
