package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.EnqueueOutcome;
import org.scrapycluster.common.queue.EnqueueRequest;
import org.scrapycluster.common.queue.Enqueuer;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.queue.SpiderCensus;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.redis.RedisLock;
import org.scrapycluster.common.redis.RedisLocks;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.junit.ManualClock;
import org.scrapycluster.redismonitor.stats.BacklogMeters;

import ch.qos.logback.classic.Level;

/**
 * The backlog meters after 10,000 requests are filed as the Kafka monitor files them: the spider's
 * gauge equals the requests queued, the top domains are the largest queues, only the monitor
 * holding the lock exports them, and a drained spider reads 0. A Redis of its own, so that no other test's monitor holds the lock.
 */
class BacklogMetersTest {

    private final ManualClock clock = new ManualClock();

    private static final int SMALL_DOMAINS = 40;
    private static final int PER_SMALL_DOMAIN = 200;
    private static final int BIG_DOMAIN = 2_000;

    @Test
    void theBacklogIsTheQueuedRequestsAndOneMonitorExportsIt() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("backlog-redis"));
             RedisConnection redis = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()));
             RedisLocks firstLocks = new RedisLocks(redis, Duration.ofSeconds(6));
             RedisLocks secondLocks = new RedisLocks(redis, Duration.ofSeconds(6))) {
            QueueState state = new QueueState(redis, "link");
            List<EnqueueRequest> requests = new ArrayList<>();
            for (int i = 0; i < SMALL_DOMAINS * PER_SMALL_DOMAIN; i++) {
                requests.add(request(state, "d" + (i % SMALL_DOMAINS) + ".example", i));
            }
            for (int i = 0; i < BIG_DOMAIN; i++) {
                requests.add(request(state, "big.example", i));
            }
            List<EnqueueOutcome> outcomes = new Enqueuer(redis, false).enqueueBatch(requests);
            assertEquals(10_000, outcomes.stream().filter(outcome -> outcome == EnqueueOutcome.QUEUED).count());

            PrometheusMeterRegistry first = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            PrometheusMeterRegistry second = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            BacklogMeters exporting = new BacklogMeters(redis, census(redis), firstLocks, first, 3, clock);
            try (BacklogMeters waiting = new BacklogMeters(redis, census(redis), secondLocks, second, 3, clock)) {
                assertTrue(exporting.refresh());
                assertFalse(waiting.refresh(), "the lock is taken");

                String scrape = first.scrape();
                assertTrue(scrape.contains("redis_monitor_queue_backlog{spider=\"link\"} 10000.0"), scrape);
                assertTrue(scrape.contains("redis_monitor_queue_domain_backlog{domain=\"big.example\",spider=\"link\"} 2000.0"), scrape);
                assertEquals(3, first.find("redis.monitor.queue.domain.backlog").gauges().size(), "bounded to the top 3");
                assertEquals(1, first.get("redis.monitor.crawls.active").gauge().value(), "one crawl in the queues");
                assertEquals(List.of(), second.find("redis.monitor.queue.backlog").gauges().stream().map(Gauge::value).toList(),
                        "a monitor without the lock exports no backlog");

                exporting.close();
                assertTrue(waiting.refresh(), "the lock is free once its holder stopped");
                assertEquals(10_000, second.get("redis.monitor.queue.backlog").tag("spider", "link").gauge().value());
                assertEquals(List.of(), first.find("redis.monitor.queue.backlog").gauges(), "a closed monitor exports none");

                redis.sync().del(redis.sync().zrange("link:active_domains", 0, -1).stream()
                        .map(domain -> new QueueKey("link", domain).key()).toArray(String[]::new));
                redis.sync().del("link:active_domains");
                assertTrue(waiting.refresh());
                assertEquals(0, second.get("redis.monitor.queue.backlog").tag("spider", "link").gauge().value(),
                        "a drained spider is exported as 0, so that an autoscaler sees the drop");
                assertEquals(List.of(), second.find("redis.monitor.queue.domain.backlog").gauges());

                clock.advance(BacklogMeters.DRAINED_KEPT.minusSeconds(1));
                assertTrue(waiting.refresh());
                assertEquals(0, second.get("redis.monitor.queue.backlog").tag("spider", "link").gauge().value(), "a few scrapes on");
                redis.sync().set(Keyspace.CRAWLER_HEARTBEAT.fill("host1", "link", "0123456789ab"), "1");
                clock.advance(Duration.ofSeconds(2));
                assertTrue(waiting.refresh());
                assertEquals(0, second.get("redis.monitor.queue.backlog").tag("spider", "link").gauge().value(),
                        "kept while a crawler node runs for it");
                redis.sync().del(Keyspace.CRAWLER_HEARTBEAT.fill("host1", "link", "0123456789ab"));
                clock.advance(BacklogMeters.DRAINED_KEPT);
                assertTrue(waiting.refresh());
                assertEquals(List.of(), second.find("redis.monitor.queue.backlog").gauges(),
                        "a spider drained, with no crawler node, for long enough is exported no longer");
            }
        }
    }

    /** A monitor whose lock expired under it (a Redis that stalled) and that took it again says so, as it said it lost it. */
    @Test
    void aMonitorThatLostTheLockAndTookItAgainSaysSo() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("backlog-lock-redis"));
             RedisConnection redis = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()));
             RedisLocks locks = new RedisLocks(redis, Duration.ofSeconds(1));
             CapturedLog lockLog = CapturedLog.start(RedisLock.class, Level.WARN);
             CapturedLog log = CapturedLog.start(BacklogMeters.class, Level.INFO);
             BacklogMeters backlog = new BacklogMeters(redis, census(redis), locks,
                     new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), 3, clock)) {
            assertTrue(backlog.refresh());
            redis.sync().del(Keyspace.LOCK.fill(Keyspace.BACKLOG_METERS_LOCK));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !lockLog.lines().isEmpty());

            assertTrue(backlog.refresh());
            assertEquals(List.of("INFO This Redis monitor exports the queue backlog meters",
                    "INFO This Redis monitor took the lock again and goes on exporting the queue backlog meters"), log.lines());
        }
    }

    @Test
    void keysRedisRefusesAreSkippedAndTheOthersMeasured() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("backlog-refused-redis"));
             RedisConnection redis = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()));
             RedisLocks locks = new RedisLocks(redis, Duration.ofSeconds(6))) {
            QueueState state = new QueueState(redis, "link");
            assertEquals(List.of(EnqueueOutcome.QUEUED), new Enqueuer(redis, false).enqueueBatch(List.of(request(state, "good.example", 1))));
            redis.sync().set("broken:active_domains", "not a sorted set");
            redis.sync().zadd("link:active_domains", 0, "bad.example");
            redis.sync().set(new QueueKey("link", "bad.example").key(), "not a queue");

            PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            try (BacklogMeters backlog = new BacklogMeters(redis, census(redis), locks, meters, 3, clock)) {
                assertTrue(backlog.refresh());
                assertEquals(1, meters.get("redis.monitor.queue.backlog").tag("spider", "link").gauge().value());
                assertEquals(1, meters.get("redis.monitor.crawls.active").gauge().value());
            }
        }
    }

    /** A monitor's census that passes over the keyspace at each ask, as on a small keyspace: a pass takes no time on the test's clock. */
    private SpiderCensus census(RedisConnection redis) {
        return new SpiderCensus(redis, Duration.ZERO, clock);
    }

    private static EnqueueRequest request(QueueState state, String domain, int n) {
        String member = state.feedItem("http://" + domain + "/" + n, "app", "crawl", 1, OneMonitorTest.FAR);
        return EnqueueRequest.of(new QueueKey("link", domain), member);
    }
}
