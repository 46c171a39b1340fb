package org.scrapycluster.common.stats;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

import io.lettuce.core.RedisException;
import io.lettuce.core.SetArgs;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.Ticker;
import org.scrapycluster.common.service.StopBudget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the cluster that a process is alive: {@code SET <key> <epoch seconds> EX <ttl>} every
 * period (docs/compatibility.md §1A), at a key the caller names, such as
 * {@code stats:kafka-monitor:self:<host>:<uuid12>} or {@code stats:crawler:<host>:<spider>:<uuid12>}.
 * A process that dies disappears after the TTL; one that stops cleanly removes its key at once.
 */
public final class Heartbeat implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Heartbeat.class);

    private final RedisConnection redis;
    private final String key;
    private final Duration ttl;
    private final Duration period;
    private final Clock clock;
    private final OutageReporter outage;
    private final Ticker ticker = new Ticker("heartbeat");

    /**
     * @param key    the heartbeat key
     * @param ttl    how long the key lives without a beat ({@code HEARTBEAT_TIMEOUT}, 120 s)
     * @param period how often to beat; shorter than the TTL
     */
    public Heartbeat(RedisConnection redis, String key, Duration ttl, Duration period, Clock clock) {
        if (ttl.getSeconds() < 1 || period.compareTo(ttl) >= 0) {
            throw new IllegalArgumentException("a heartbeat needs a TTL of a second or more and a shorter period, got "
                    + ttl + " and " + period);
        }
        this.redis = redis;
        this.key = key;
        this.ttl = ttl;
        this.period = period;
        this.clock = clock;
        this.outage = new OutageReporter(LOG, "Heartbeat " + key);
    }

    public String key() {
        return key;
    }

    /** Beats now and then every period, in the background. */
    public void start() {
        ticker.every(Duration.ZERO, period, this::beat);
    }

    /**
     * Writes the heartbeat once.
     *
     * @return whether Redis took it
     */
    public boolean beat() {
        Instant now = clock.instant();
        String epoch = now.getEpochSecond() + "." + String.format(Locale.ROOT, "%06d", now.getNano() / 1000);
        try {
            redis.sync().set(key, epoch, SetArgs.Builder.ex(ttl.getSeconds()));
            outage.succeeded();
            return true;
        } catch (RedisException e) {
            outage.failed(e);
            return false;
        }
    }

    /** Stops beating and removes the key (best effort: otherwise it expires after the TTL). */
    @Override
    public void close() {
        close(Ticker.STOP_TIMEOUT);
    }

    /**
     * Stops beating, waiting at most {@code wait} for a beat in progress, and removes the heartbeat key, unless Redis is
     * not answering ({@link RedisConnection#answers()}): then the key expires after the TTL.
     */
    public void close(Duration wait) {
        ticker.close(wait);
        if (!redis.answers()) {
            LOG.debug("Redis is not answering; heartbeat {} expires within {}", key, ttl);
            return;
        }
        try {
            redis.sync().del(key);
        } catch (RedisException e) {
            LOG.debug("Could not remove heartbeat {}; it expires within {}", key, ttl);
        }
    }

    /**
     * Stops beating, waiting for a beat in progress at most what {@code budget} grants an ordinary wait, and removes
     * the heartbeat key as one of the service's last writes ({@link RedisConnection#writeAtStop}); a key not removed is
     * noted in the budget, and expires after the TTL.
     */
    public void close(StopBudget budget) {
        ticker.close(budget.waitFor(Ticker.STOP_TIMEOUT));
        redis.writeAtStop(budget, "the removal of the heartbeat " + key + ", left to expire within " + ttl, () -> redis.async().del(key));
    }
}
