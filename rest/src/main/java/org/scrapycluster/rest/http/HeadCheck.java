package org.scrapycluster.rest.http;

import io.netty.handler.codec.DecoderResult;

/**
 * What a request's head says about it, checked once ({@link Dispatcher#checkHead}): whether the gateway answers for its
 * {@code Host}, and who presents its API key. {@link Admission} checks the head before the body is read and sets the
 * result as the request's decoder result (the head decoded fine): the aggregator hands the whole request on with the
 * head's decoder result, so the {@link Dispatcher} answers from it without hashing the key or reading the key files
 * again. A failure found later in the body replaces it, and such a request is refused before it is dispatched.
 */
final class HeadCheck extends DecoderResult {

    private final boolean hostAllowed;
    private final Caller caller;

    /**
     * @param caller who presents the key, or null when the path is open or the host refused (the key was not looked at)
     */
    HeadCheck(boolean hostAllowed, Caller caller) {
        super(SIGNAL_SUCCESS);
        this.hostAllowed = hostAllowed;
        this.caller = caller;
    }

    /**
     * The refusal the call earns whatever its body: {@link Refusal#HOST} for a host the gateway does not answer for,
     * {@link Refusal#UNAUTHORIZED} when the path needs a key and none valid is presented; null when it earns none.
     */
    Refusal refusal() {
        if (!hostAllowed) {
            return Refusal.HOST;
        }
        return caller != null && caller.access() == Access.NONE ? Refusal.UNAUTHORIZED : null;
    }

    /** Who presents the key; null when the path is open or the host refused. */
    Caller caller() {
        return caller;
    }
}
