package org.scrapycluster.common.redis;

import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import io.lettuce.core.RedisBusyException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisLoadingException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisReadOnlyException;

/**
 * Tells, among the errors Redis answers, the one that comes from the data rather than from the server: a command
 * (or a script's command) on a key that holds another type. Redis would answer it again however often it is
 * asked, so it refuses that request; every other error is taken as an outage to wait out.
 */
public final class RedisErrors {

    /**
     * The starts of the errors that say something of the server, whatever key a command names: its state, or what it lets
     * this client do ({@code NOPERM}: an ACL to mend, not a request to refuse).
     */
    private static final List<String> SERVER_STATES = List.of("BUSY", "LOADING", "READONLY", "NOSCRIPT", "OOM", "MASTERDOWN",
            "MISCONF", "NOREPLICAS", "NOAUTH", "NOPERM", "CLUSTERDOWN", "TRYAGAIN", "ERR max number of clients");
    /**
     * What Redis 6.2 and before put in front of an error raised inside a script: {@code ERR Error running script (call to
     * f_…): }, where the script was ({@code @user_script:21: }, once or twice), and the reply's dash. Redis 7 gives the
     * error's own words first.
     */
    private static final Pattern SCRIPT_WRAPPING =
            Pattern.compile("^(?:ERR Error running script \\(call to [^)]*\\): )?(?:@?\\w+: ?\\d+: )*-?");

    private RedisErrors() {
    }

    /** Whether {@code error} is Redis' {@code WRONGTYPE}, answered directly or from inside a script. */
    public static boolean isWrongType(Throwable error) {
        return error instanceof RedisCommandExecutionException && String.valueOf(error.getMessage()).contains("WRONGTYPE");
    }

    /** Whether {@code error} is Redis saying that this client's user may not run the command ({@code NOPERM}, an ACL's). */
    public static boolean isPermissionRefusal(Throwable error) {
        return error instanceof RedisCommandExecutionException && String.valueOf(error.getMessage()).startsWith("NOPERM");
    }

    /**
     * What {@code read} answers, or {@code otherwise} when Redis answers it {@code WRONGTYPE}: for a read of a key that
     * may hold one of several types (a statistics key a Python component wrote). Every other error is thrown, so that a
     * server loading its data or busy with a script is waited out as an outage rather than read as a missing value.
     */
    public static <T> T unlessWrongType(Supplier<T> read, T otherwise) {
        try {
            return read.get();
        } catch (RedisCommandExecutionException e) {
            if (!isWrongType(e)) {
                throw e;
            }
            return otherwise;
        }
    }

    /**
     * Whether {@code error} is Redis refusing a request for the data it names (a key of another type, a value that is not
     * a number, a script's error on either), which it would answer again for that key however often it is asked,
     * rather than an answer about the server (busy with a script, loading, out of memory, a read-only replica…),
     * which is an outage to wait out.
     */
    public static boolean isRefusal(Throwable error) {
        if (!(error instanceof RedisCommandExecutionException) || error instanceof RedisBusyException
                || error instanceof RedisLoadingException || error instanceof RedisReadOnlyException
                || error instanceof RedisNoScriptException) {
            return false;
        }
        String message = SCRIPT_WRAPPING.matcher(String.valueOf(error.getMessage())).replaceFirst("");
        return SERVER_STATES.stream().noneMatch(message::startsWith);
    }
}
