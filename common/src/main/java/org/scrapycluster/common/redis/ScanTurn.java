package org.scrapycluster.common.redis;

import java.time.Duration;

import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.logging.SaidOnce;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster-wide turn to make a periodic pass over the keyspace, so that the passes do not grow with the processes that
 * make them (docs/operations.md "Scans of the keyspace"): the process whose token the turn's key holds makes the pass,
 * then holds the key through its quiet time, and the others find it set until then. The key always expires, so a
 * process that dies holding it holds it no longer than its hold. Each {@link #take} is one script call
 * ({@code lua/take_turn.lua}), and so is each {@link #holdFor}.
 *
 * <p>A holder takes its turn again whatever its hold has left. Redis counts a key expired only once its clock, in whole
 * milliseconds, is past the expiry: a holder that waited exactly its quiet time found its own key still set about one
 * time in two, and missed that pass (the Redis monitor's job scan ran about seven times a second instead of ten).
 *
 * <p>A process knows how long its turn is surely its own ({@link #surelyHeld}): the key cannot expire before its hold,
 * counted from before the call that set it. Not thread-safe: one process's passes are made one at a time.
 *
 * <p>A key at the turn's name without an expiry (written by hand, or restored from a dump by a tool that dropped the
 * expiries) would keep the turn from everyone for ever; the first process that finds one gives it the hold it asked for,
 * logs it once, and the turn comes back when that runs out.
 */
public final class ScanTurn {

    private static final Logger LOG = LoggerFactory.getLogger(ScanTurn.class);
    private static final LuaScript TAKE = LuaScript.load("take_turn");
    /** What {@code take_turn.lua} answers when it found the key without an expiry. */
    private static final long NO_EXPIRY = -1;

    private final RedisConnection redis;
    private final String key;
    private final String token;
    private final SaidOnce unexpiring = new SaidOnce("key");
    /**
     * Until when ({@link System#nanoTime}) the turn is surely this process's own: before when its key cannot expire,
     * or the last call's start when that call did not get or keep the turn.
     */
    private long heldUntil = System.nanoTime();

    /** @param key the turn's key, e.g. {@code <spiderid>:queue_scan} */
    public ScanTurn(RedisConnection redis, String key) {
        this.redis = redis;
        this.key = key;
        this.token = RedisLocks.newToken();
    }

    /**
     * Whether this process has the turn: no process held it, or this one did; if so, this one has it for {@code hold},
     * unless it {@link #holdFor holds it} for another time before that runs out.
     */
    public boolean take(Duration hold) {
        long asked = System.nanoTime();
        String holdMillis = Long.toString(Math.max(1, hold.toMillis()));
        Long taken = TAKE.call(redis, ScriptOutputType.INTEGER, new String[] {key}, token, holdMillis);
        if (taken == NO_EXPIRY && unexpiring.first(key)) {
            LOG.atWarn().addKeyValue("key", key).addKeyValue("expires_in_ms", holdMillis)
                    .log("A scan turn's key had no expiry and kept every process from scanning; it expires now (logged once)");
        }
        return held(taken == 1, asked, hold);
    }

    /**
     * Holds the turn for {@code quiet} from now: no other process takes it before that, nor after this one dies. A turn
     * this process no longer holds (its hold ran out, and another took it) is left as it is, and {@link #surelyHeld}
     * says so.
     */
    public void holdFor(Duration quiet) {
        long asked = System.nanoTime();
        Long held = RedisLocks.COMPARE.call(redis, ScriptOutputType.INTEGER, new String[] {key}, token,
                Long.toString(Math.max(1, quiet.toMillis())));
        held(held == 1, asked, quiet);
    }

    /**
     * How long from now the turn is surely this process's own, as its last {@link #take} or {@link #holdFor} left it:
     * zero when it did not get or keep the turn, or when its hold may have run out.
     */
    public Duration surelyHeld() {
        long left = heldUntil - System.nanoTime();
        return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }

    /** Notes what a call asked at {@code asked} for {@code hold} found, and returns it. */
    private boolean held(boolean held, long asked, Duration hold) {
        heldUntil = held ? asked + hold.toNanos() : asked;
        return held;
    }
}
