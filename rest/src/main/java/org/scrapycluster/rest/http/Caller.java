package org.scrapycluster.rest.http;

import java.util.Objects;

/**
 * Who sent a call, as far as the gateway cares.
 *
 * @param access    what the presented key allows ({@link Access#WRITE} for everyone when no keys are configured)
 * @param anonymous true when no keys are configured, so nobody needs one
 * @param keyId     a short hash naming the presented key in logs, or null when none was presented
 */
public record Caller(Access access, boolean anonymous, String keyId) {

    /** Everyone, when the gateway has no keys. */
    public static final Caller ANONYMOUS = new Caller(Access.WRITE, true, null);

    public Caller {
        Objects.requireNonNull(access, "access");
    }
}
