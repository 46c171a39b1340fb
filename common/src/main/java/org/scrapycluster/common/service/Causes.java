package org.scrapycluster.common.service;

import java.util.Optional;

/** The chain of causes under a failure: what a message or a decision looks for below the wrapper it was caught as. */
public final class Causes {

    private Causes() {
    }

    /** The last of {@code failure}'s causes, what the system itself refused, say; {@code failure} when it has none. */
    public static Throwable innermost(Throwable failure) {
        Throwable innermost = failure;
        while (innermost.getCause() != null && innermost.getCause() != innermost) {
            innermost = innermost.getCause();
        }
        return innermost;
    }

    /** The first of {@code failure} and its causes, in that order, that is a {@code kind}. */
    public static <T extends Throwable> Optional<T> first(Throwable failure, Class<T> kind) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (kind.isInstance(cause)) {
                return Optional.of(kind.cast(cause));
            }
        }
        return Optional.empty();
    }
}
