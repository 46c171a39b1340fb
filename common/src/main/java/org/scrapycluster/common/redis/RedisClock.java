package org.scrapycluster.common.redis;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

import io.lettuce.core.RedisException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Redis's clock, read through this host's: the host's clock moved by how far the two differ, measured with {@code TIME}
 * once a connection is followed and every {@link #MEASURE_EVERY} after. What a service stamps for the whole cluster
 * with it (its statistics' buckets, its Kafka records) agrees with what the other hosts stamp, whatever this host's
 * clock says: a crawler two hours fast had every page refused by the broker (a record's time at most an hour ahead
 * of the broker's), and trimmed the other nodes' statistics buckets as two hours old (docs/operations.md, "Clocks").
 * Until the first measure, and while Redis does not answer, the last difference measured holds (none at first).
 */
public final class RedisClock extends Clock implements AutoCloseable {

    /** How often the difference is measured again. */
    public static final Duration MEASURE_EVERY = Duration.ofMinutes(1);

    /** A difference beyond this is said at WARN: the host's clock wants mending. */
    static final Duration SAID_BEYOND = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(RedisClock.class);

    private final Clock host;
    private volatile long offsetMillis;
    private volatile boolean said;
    private Ticker ticker;

    /** @param host this host's clock */
    public RedisClock(Clock host) {
        this.host = host;
    }

    /**
     * Measures the difference through {@code redis} now, before returning, so that what the caller starts next is on
     * Redis's time from its first stamp (a Redis monitor would otherwise judge the first expiries by the host's clock),
     * then every {@link #MEASURE_EVERY}, until closed.
     */
    public synchronized void follow(RedisConnection redis) {
        if (ticker == null) {
            measure(redis);
            ticker = new Ticker("redis-clock");
            ticker.every(MEASURE_EVERY, MEASURE_EVERY, () -> measure(redis));
        }
    }

    /** Measures how far Redis's clock is from the host's, half a round trip's error at most; kept as it was when Redis cannot say. */
    void measure(RedisConnection redis) {
        long serverMillis;
        long sent = host.millis();
        try {
            serverMillis = redis.serverTime().toEpochMilli();
        } catch (RedisException e) {
            return; // the service's own Redis work says the outage
        }
        long answered = host.millis();
        offsetMillis = serverMillis - (sent + answered) / 2;
        boolean beyond = Math.abs(offsetMillis) > SAID_BEYOND.toMillis();
        if (beyond && !said) {
            long seconds = Math.round(Math.abs(offsetMillis) / 1000.0);
            LOG.atWarn().addKeyValue("seconds", offsetMillis / 1000.0)
                    .log("This host's clock is " + seconds + " s " + (offsetMillis < 0 ? "ahead of" : "behind")
                            + " Redis's; statistics and Kafka records are stamped with Redis's time. Mend the host's clock (NTP)");
        } else if (!beyond && said) {
            LOG.info("This host's clock agrees with Redis's again");
        }
        said = beyond;
    }

    /** Redis's time less this host's, as last measured. */
    public Duration offset() {
        return Duration.ofMillis(offsetMillis);
    }

    @Override
    public Instant instant() {
        return host.instant().plusMillis(offsetMillis);
    }

    @Override
    public long millis() {
        return host.millis() + offsetMillis;
    }

    @Override
    public ZoneId getZone() {
        return host.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return Clock.offset(host.withZone(zone), offset());
    }

    /** Stops measuring. */
    @Override
    public synchronized void close() {
        if (ticker != null) {
            ticker.close();
        }
    }
}
