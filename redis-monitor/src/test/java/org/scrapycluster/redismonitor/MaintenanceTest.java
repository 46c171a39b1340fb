package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Set;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.HealthReport;
import org.scrapycluster.common.queue.QueueKey;

import io.micrometer.core.instrument.FunctionCounter;

/** What a running monitor does beside jobs: lease reaping, health and metrics. */
class MaintenanceTest extends OneMonitorTest {

    @Test
    void returnsTheLeasesOfACrawlerThatDied() {
        queues.seed("a.com", queues.feedItem("https://a.com/1", appid, "c1", 1, 0));
        queues.seed("a.com", queues.feedItem("https://a.com/2", appid, "c1", 1, 0));
        queues.handOut("a.com", Duration.ofMillis(1));
        queues.handOut("a.com", Duration.ofMillis(1));
        QueueKey queue = new QueueKey(queues.spider(), "a.com");
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (fixture.redis().sync().zcard(queue.key()) < 2 && System.nanoTime() < deadline) {
            MonitorFixture.sleep(Duration.ofMillis(50));
        }
        assertEquals(2, fixture.redis().sync().zcard(queue.key()), "both requests are back in their queue");
        assertEquals(0, fixture.redis().sync().hlen(Keyspace.leased(queues.spider())));
        FunctionCounter reaped = fixture.monitors().get(0).meters().find("redis.monitor.leases.reaped").functionCounter();
        // the reaper adds to its total after its pass over every spider, after the requests are back
        Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertTrue(reaped.count() >= 2, "counted: " + reaped.count()));
    }

    @Test
    void reportsItsHealth() {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        HealthReport report;
        do {
            MonitorFixture.sleep(Duration.ofMillis(100));
            report = fixture.monitors().get(0).health().check();
        } while (!report.isUp() && System.nanoTime() < deadline);
        assertTrue(report.isUp(), report.toJson());
        assertEquals(Set.of("redis", "kafka", "zookeeper"), report.checks().keySet());
    }
}
