package org.scrapycluster.redismonitor.job;

import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisLocks;

/**
 * Counts the failed attempts at a job in {@code lock:<key>:failures} (docs/compatibility.md §3.2) and
 * says when to give it up: with {@code RETRY_FAILURES} on, a job is retried until its count has
 * reached {@code RETRY_FAILURES_MAX}, and given up at the next failure; with it off, a failing job
 * is retried for ever. Called while the job's lock is held.
 */
public final class JobFailures {

    private final RedisConnection redis;
    private final boolean retry;
    private final int max;

    /**
     * @param retry whether failures are counted and jobs given up ({@code RETRY_FAILURES})
     * @param max   failures counted before a job is given up ({@code RETRY_FAILURES_MAX})
     */
    public JobFailures(RedisConnection redis, boolean retry, int max) {
        if (max < 0) {
            throw new IllegalArgumentException("RETRY_FAILURES_MAX cannot be negative, got " + max);
        }
        this.redis = redis;
        this.retry = retry;
        this.max = max;
    }

    /** {@code lock:<key>:failures}. */
    public static String key(String jobKey) {
        return Keyspace.LOCK_FAILURES.fill(jobKey);
    }

    /**
     * Counts one more failure of the job at {@code jobKey}.
     *
     * @return true when the job is to be given up. Its count stays until the job is finished (deleted with it), so a
     *         job given up whose requesters Kafka could not be told of it is given up at its next failure again, not
     *         tried as many times once more
     */
    public boolean failed(String jobKey) {
        if (!retry) {
            return false;
        }
        String failures = key(jobKey);
        long count = parse(redis.sync().get(failures));
        if (count < max) {
            redis.sync().set(failures, Long.toString(count + 1));
            return false;
        }
        return true;
    }

    private static long parse(String count) {
        if (count == null) {
            return 0;
        }
        try {
            return Long.parseLong(count.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
