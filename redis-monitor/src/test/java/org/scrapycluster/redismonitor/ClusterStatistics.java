package org.scrapycluster.redismonitor;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.stats.RollingWindowCounter;

/**
 * The statistics of a small cluster, as its services leave them in Redis, that the {@code stats-*}
 * answer fixtures describe: counters in every form (our bucketed hashes, an earlier build's at the original's
 * name, and a Python component's sorted sets), lifetime HyperLogLogs, heartbeats of Kafka monitors {@code km-host-1:6f1c2e9a0b11}
 * and {@code km-host-1:a1b2c3d4e5f6}, of a REST service and of four crawlers, and the queues of two
 * spiders. The Redis monitor's own heartbeat ({@code rm-host:0123456789ab}) is left to the monitor.
 */
public final class ClusterStatistics {

    /** The number of the fixture's next window write: a window takes each number of a writer once. */
    private static final AtomicLong WRITES = new AtomicLong();

    private ClusterStatistics() {
    }

    /** Writes the statistics into a database that holds nothing else. */
    public static void write(RedisConnection redis) {
        long now = Instant.now().getEpochSecond();
        window(redis, "stats:kafka-monitor:total:900", 3, now);
        lifetime(redis, "stats:kafka-monitor:total:lifetime", 58);
        pythonWindow(redis, "stats:kafka-monitor:total:3600", 5, now - 7_200);
        pythonWindow(redis, "stats:kafka-monitor:fail:86400", 4, now - 10);
        lifetime(redis, "stats:kafka-monitor:fail:lifetime", 7);
        window(redis, "stats:kafka-monitor:ScraperHandler:900", 2, now);
        lifetime(redis, "stats:kafka-monitor:ScraperHandler:lifetime", 18);
        pythonWindow(redis, "stats:kafka-monitor:StatsHandler:900", 1, now - 1);
        redis.sync().set("stats:kafka-monitor:self:km-host-1:6f1c2e9a0b11", Long.toString(now));
        redis.sync().set("stats:kafka-monitor:self:km-host-1:a1b2c3d4e5f6", Long.toString(now));

        window(redis, "stats:redis-monitor:total:900", 2, now);
        lifetime(redis, "stats:redis-monitor:InfoMonitor:lifetime", 5);
        redis.sync().set("stats:rest:self:rest-host:c4ec35bf9c1a", Long.toString(now));

        for (String heartbeat : List.of("host1:link:aaaaaaaaaaa1", "host1:link:aaaaaaaaaaa2", "host2:link:aaaaaaaaaaa3",
                "host2:other:aaaaaaaaaaa4")) {
            redis.sync().set("stats:crawler:" + heartbeat, Long.toString(now));
        }
        window(redis, "stats:crawler:host1:link:200:3600", 3, now);
        earlierBuildWindow(redis, "stats:crawler:host1:link:200:3600", 2, now);
        pythonWindow(redis, "stats:crawler:host1:other:200:3600", 5, now - 30);
        window(redis, "stats:crawler:host2:link:200:3600", 4, now);
        pythonWindow(redis, "stats:crawler:host2:link:200:900", 3, now - 1_000);
        lifetime(redis, "stats:crawler:host1:link:200:lifetime", 7);
        lifetime(redis, "stats:crawler:host2:link:504:lifetime", 2);

        queue(redis, "link:a.com:queue", 20);
        queue(redis, "link:b.com:queue", 4);
        queue(redis, "link:c.com:queue", 2);
        queue(redis, "wandering:x.com:queue", 3);
        queue(redis, "wandering:y.com:queue", 1);
    }

    /** Our form of a rolling window: a hash of time buckets at {@code buckets:<key>}. */
    private static void window(RedisConnection redis, String key, long events, long now) {
        RollingWindowCounter counter = new RollingWindowCounter(key, Long.parseLong(key.substring(key.lastIndexOf(':') + 1)));
        redis.await(counter.addAsync(redis, Map.of(counter.bucketStart(now), events), now, "fixture", WRITES.incrementAndGet()));
    }

    /** The form an earlier build of ours kept a rolling window in: a hash of time buckets at the original's name. */
    private static void earlierBuildWindow(RedisConnection redis, String key, long events, long now) {
        RollingWindowCounter counter = new RollingWindowCounter(key, Long.parseLong(key.substring(key.lastIndexOf(':') + 1)));
        redis.sync().hset(key, Long.toString(counter.bucketStart(now)), Long.toString(events));
    }

    /** A Python component's form of a rolling window: one sorted-set member per event, scored by its time. */
    private static void pythonWindow(RedisConnection redis, String key, int events, long at) {
        for (int i = 0; i < events; i++) {
            redis.sync().zadd(key, at + i / 1000.0, Double.toString(at + i / 1000.0));
        }
    }

    private static void lifetime(RedisConnection redis, String key, int events) {
        List<String> members = new ArrayList<>();
        for (int i = 0; i < events; i++) {
            members.add(key + ":" + i);
        }
        redis.sync().pfadd(key, members.toArray(String[]::new));
    }

    private static void queue(RedisConnection redis, String key, int members) {
        for (int i = 0; i < members; i++) {
            redis.sync().zadd(key, -1, "{\"url\":\"https://x/" + i + "\"}");
        }
    }
}
