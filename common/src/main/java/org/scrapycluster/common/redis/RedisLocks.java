package org.scrapycluster.common.redis;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import org.scrapycluster.common.keyspace.Keyspace;

/**
 * Non-blocking distributed locks at {@code lock:<key>} (docs/compatibility.md §3.2), the way several
 * Redis monitors share jobs: {@code SET NX PX} with a random token, renewed every two thirds of
 * the expiry while held, released only by the holder of the token. A holder that dies loses the
 * lock when it expires.
 */
public final class RedisLocks implements AutoCloseable {

    /** Renews or releases a key only while it holds the caller's token (a lock, a scan turn). */
    static final LuaScript COMPARE = LuaScript.load("lock");
    /** Takes a key that is free or holds the caller's token already (a scan turn, a lock taken again by its holder). */
    private static final LuaScript TAKE = LuaScript.load("take_turn");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final RedisConnection redis;
    private final Duration expiry;
    private final Ticker renewer = new Ticker("redis-lock-renewer");

    /**
     * @param redis  the connection
     * @param expiry how long a lock outlives its holder ({@code REDIS_LOCK_EXPIRATION}, 6 s by default)
     */
    public RedisLocks(RedisConnection redis, Duration expiry) {
        if (expiry.toMillis() < 3) {
            throw new IllegalArgumentException("lock expiry must be at least 3 ms, got " + expiry);
        }
        this.redis = redis;
        this.expiry = expiry;
    }

    /**
     * Takes the lock on {@code key} if nobody holds it; never waits.
     *
     * @return the held lock, to be closed when done, or empty when another holder has it
     */
    public Optional<RedisLock> tryAcquire(String key) {
        String token = newToken();
        long asked = System.nanoTime();
        String reply = redis.sync().set(Keyspace.lock(key), token, SetArgs.Builder.nx().px(expiry.toMillis()));
        if (!"OK".equals(reply)) {
            return Optional.empty();
        }
        return Optional.of(new RedisLock(redis, COMPARE, renewer, Keyspace.lock(key), token, expiry, asked));
    }

    /**
     * Takes the lock on {@code key} for the holder known by {@code token}: when nobody holds it, or when it holds
     * {@code token} already; never waits. A holder that asks with one token each time (its own, {@link #newToken()}) finds
     * again a lock whose take it gave up on: a take sent while Redis was away and done when it came back, after the
     * caller had stopped waiting for its answer, would otherwise keep everyone, the caller too, from the lock until it
     * expires.
     *
     * @return the held lock, to be closed when done, or empty when another holder has it
     */
    public Optional<RedisLock> tryAcquireAs(String key, String token) {
        long asked = System.nanoTime();
        Long taken = TAKE.call(redis, ScriptOutputType.INTEGER, new String[] {Keyspace.lock(key)}, token,
                Long.toString(expiry.toMillis()));
        if (taken != 1) {
            return Optional.empty();
        }
        return Optional.of(new RedisLock(redis, COMPARE, renewer, Keyspace.lock(key), token, expiry, asked));
    }

    /** A random token, 128 bits in hex, by which a holder of a key (a lock, a scan turn) knows its own. */
    public static String newToken() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** Stops renewing; locks still held expire on their own. */
    @Override
    public void close() {
        renewer.close();
    }

    /** Stops renewing, waiting at most {@code wait} for a renewal in progress to end; locks still held expire on their own. */
    public void close(Duration wait) {
        renewer.close(wait);
    }
}
