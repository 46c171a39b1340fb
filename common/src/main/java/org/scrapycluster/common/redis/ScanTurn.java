package org.scrapycluster.common.redis;

import java.time.Duration;

import io.lettuce.core.SetArgs;
import org.scrapycluster.common.logging.SaidOnce;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster-wide turn to make a periodic pass over the keyspace, so that the passes do not grow with the processes that
 * make them (docs/operations.md "Scans of the keyspace"): the process that sets the turn's key ({@code SET NX PX}) makes
 * the pass, then holds the key through its quiet time, and the others find it set until then. The key always expires, so
 * a process that dies holding it holds it no longer than its hold.
 *
 * <p>A key at the turn's name without an expiry (written by hand, or restored from a dump by a tool that dropped the
 * expiries) would keep the turn from everyone for ever; the first process that finds one gives it the hold it asked for,
 * logs it once, and the turn comes back when that runs out.
 */
public final class ScanTurn {

    private static final Logger LOG = LoggerFactory.getLogger(ScanTurn.class);
    /** What {@code PTTL} answers for a key that exists and has no expiry. */
    private static final long NO_EXPIRY = -1;

    private final RedisConnection redis;
    private final String key;
    private final SaidOnce unexpiring = new SaidOnce("key");

    /** @param key the turn's key, e.g. {@code jobs:scan_turn} */
    public ScanTurn(RedisConnection redis, String key) {
        this.redis = redis;
        this.key = key;
    }

    /**
     * Whether no process holds the turn; if so, this one has it for {@code hold}, unless it {@link #holdFor holds it}
     * for another time before that runs out.
     */
    public boolean take(Duration hold) {
        long holdMillis = Math.max(1, hold.toMillis());
        if ("OK".equals(redis.sync().set(key, "1", SetArgs.Builder.nx().px(holdMillis)))) {
            return true;
        }
        if (redis.sync().pttl(key) == NO_EXPIRY) {
            redis.sync().pexpire(key, holdMillis);
            if (unexpiring.first(key)) {
                LOG.atWarn().addKeyValue("key", key).addKeyValue("expires_in_ms", holdMillis)
                        .log("A scan turn's key had no expiry and kept every process from scanning; it expires now (logged once)");
            }
        }
        return false;
    }

    /** Holds the turn for {@code quiet} from now: no process takes it before that, nor after this one dies. */
    public void holdFor(Duration quiet) {
        redis.sync().pexpire(key, Math.max(1, quiet.toMillis()));
    }
}
