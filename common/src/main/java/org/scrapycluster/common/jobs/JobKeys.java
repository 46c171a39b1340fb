package org.scrapycluster.common.jobs;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * Posting a job for the Redis monitors (docs/architecture.md "Jobs"); the job keys are named by
 * {@link Keyspace}.
 *
 * <p>A job key holds the latest request's value ({@code SET}, an overwrite, as the original writes
 * it, so a Python Redis monitor reads it unchanged). Beside it, {@code jobs:<job key>:waiting} lists every value
 * written since the job was last handled, so that a Java Redis monitor answers each request of the
 * same scope, not only the latest (docs/redis-monitor.md "Requests of the same scope"). The name
 * of each key written is pushed to {@code jobs:signal}, a list every Redis monitor blocks on, so that
 * the job is picked up at once (docs/architecture.md "Jobs"). Job keys written without the signal
 * or the waiting list (by a Python Kafka monitor) are still found by the Redis monitors' periodic
 * scan and answered as the original answers them.
 */
public final class JobKeys {

    /**
     * How long a waiting list outlives its last write: a bound for lists whose job no Java Redis
     * monitor handles; a job handled later is answered as the original answers it (latest value only).
     */
    public static final Duration WAITING_EXPIRY = Duration.ofDays(1);

    /**
     * The most values a waiting list holds, so that a flood of one scope stays bounded: a value beyond them is refused
     * (the script answers an error, which the Kafka monitor answers to the request's sender).
     */
    public static final int WAITING_KEPT = 1000;

    private static final LuaScript POST = LuaScript.load("post_job");

    private JobKeys() {
    }

    /**
     * Writes {@code value} to the job {@code key} and appends it to the job's waiting list, in one
     * atomic script call, without waiting; several calls in flight are pipelined. The future fails with Redis's error
     * when the list holds {@link #WAITING_KEPT} other values already.
     */
    public static CompletableFuture<Long> write(RedisConnection redis, String key, String value) {
        return POST.run(redis, ScriptOutputType.INTEGER, new String[] {key, Keyspace.JOB_WAITING.fill(key)}, value,
                Long.toString(WAITING_EXPIRY.toSeconds()), Integer.toString(WAITING_KEPT));
    }

    /**
     * {@link #write Writes} the job {@code key} with {@code value}, then signals it once Redis has the job (a script
     * Redis no longer has is sent again after its first try, so a signal pipelined behind that try could come first).
     */
    public static void post(RedisConnection redis, String key, String value) {
        redis.await(write(redis, key, value));
        redis.await(redis.async().rpush(Keyspace.JOBS_SIGNAL, key).toCompletableFuture());
    }
}
