package org.scrapycluster.common.redis;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;

import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.service.StopBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A held lock from {@link RedisLocks}. It renews itself in the background; {@link #isHeld()}
 * turns false when a renewal finds the lock gone or taken over (for example after Redis was
 * unreachable for longer than the expiry), and as soon as the expiry has passed since the last renewal Redis took
 * (a process paused longer than that, renewals that failed or came late): another holder may have it by then.
 * Closing releases it if it is still ours. Renewals that fail while Redis is
 * away are logged once an outage, not every time.
 */
public final class RedisLock implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RedisLock.class);

    private final RedisConnection redis;
    private final LuaScript compare;
    private final String key;
    private final String token;
    private final Duration expiry;
    private final ScheduledFuture<?> renewal;
    private final OutageReporter renewals;
    private volatile boolean held = true;
    /** When the lock expires in Redis at the earliest ({@link System#nanoTime()}): the expiry after its last renewal's ask. */
    private volatile long expiresAt;

    /** {@code asked}: when the lock was asked for ({@link System#nanoTime()}), from which its expiry runs. */
    RedisLock(RedisConnection redis, LuaScript compare, Ticker renewer, String key, String token,
              Duration expiry, long asked) {
        this.expiresAt = asked + expiry.toNanos();
        this.redis = redis;
        this.compare = compare;
        this.key = key;
        this.token = token;
        this.expiry = expiry;
        this.renewals = new OutageReporter(LOG, "Renewing the lock " + key + " (it expires " + expiry
                + " after the last renewal that succeeds)");
        Duration every = expiry.multipliedBy(2).dividedBy(3);
        this.renewal = renewer.every(every, every, this::renew);
    }

    /** The Redis key, {@code lock:<key>}. */
    public String key() {
        return key;
    }

    /** Whether the lock was still ours at the last renewal, and that renewal's expiry has not passed. */
    public boolean isHeld() {
        return held && System.nanoTime() - expiresAt < 0;
    }

    private void renew() {
        if (!held) {
            return;
        }
        try {
            long asked = System.nanoTime();
            Long renewed = compare.call(redis, ScriptOutputType.INTEGER, new String[] {key}, token,
                    Long.toString(expiry.toMillis()));
            renewals.succeeded();
            if (renewed != 0) {
                expiresAt = asked + expiry.toNanos();
            } else {
                held = false;
                LOG.warn("Lost the lock {}: it expired or another holder took it", key);
            }
        } catch (RedisException e) {
            renewals.failed(e);
        }
    }

    /**
     * Releases the lock if it is still ours; a failure to reach Redis leaves it to expire, and so does a Redis that is
     * not answering ({@link RedisConnection#answers()}): a stopping service does not wait out the command's timeout.
     */
    @Override
    public void close() {
        if (!stopHolding()) {
            return;
        }
        if (!redis.answers()) {
            LOG.warn("Redis is not answering; the lock {} is left to expire within {}", key, expiry);
            return;
        }
        try {
            compare.call(redis, ScriptOutputType.INTEGER, new String[] {key}, token, "0");
        } catch (RedisException e) {
            LOG.warn("Could not release the lock {} ({}); it expires within {}", key, e.toString(), expiry);
        }
    }

    /**
     * Releases the lock if it is still ours, as one of a stopping service's last writes within {@code budget}
     * ({@link RedisConnection#writeAtStop}); one not released is noted in the budget, and left to expire.
     */
    public void close(StopBudget budget) {
        if (stopHolding()) {
            redis.writeAtStop(budget, "the release of the lock " + key + ", left to expire within " + expiry,
                    () -> compare.run(redis, ScriptOutputType.INTEGER, new String[] {key}, token, "0"));
        }
    }

    /** Stops renewing the lock; whether it was held until now, and so is to be released. */
    private boolean stopHolding() {
        renewal.cancel(false);
        if (!held) {
            return false;
        }
        held = false;
        return true;
    }
}
