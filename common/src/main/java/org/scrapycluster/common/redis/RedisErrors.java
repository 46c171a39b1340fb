package org.scrapycluster.common.redis;

import io.lettuce.core.RedisCommandExecutionException;

/**
 * Tells, among the errors Redis answers, the one that comes from the data rather than from the server: a command
 * (or a script's command) on a key that holds another type. Redis would answer it again however often it is
 * asked, so it refuses that request; every other error is taken as an outage to wait out.
 */
public final class RedisErrors {

    private RedisErrors() {
    }

    /** Whether {@code error} is Redis' {@code WRONGTYPE}, answered directly or from inside a script. */
    public static boolean isWrongType(Throwable error) {
        return error instanceof RedisCommandExecutionException && String.valueOf(error.getMessage()).contains("WRONGTYPE");
    }
}
