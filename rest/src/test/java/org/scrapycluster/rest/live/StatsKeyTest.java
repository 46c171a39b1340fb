package org.scrapycluster.rest.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StatsKeyTest {

    @Test
    void heartbeatsAndWindowCountersAreToldApartByTheirNames() {
        StatsKey crawler = StatsKey.parse("stats:crawler:host1:link:0123456789ab").orElseThrow();
        assertTrue(crawler.heartbeat());
        assertEquals("host1", crawler.host());
        assertEquals("link", crawler.spider());

        StatsKey monitor = StatsKey.parse("stats:redis-monitor:self:host2:ba9876543210").orElseThrow();
        assertTrue(monitor.heartbeat());
        assertEquals("redis-monitor", monitor.service());
        assertEquals("host2", monitor.host());

        StatsKey responses = StatsKey.parse("stats:crawler:host1:link:404:900").orElseThrow();
        assertTrue(responses.responses() && !responses.heartbeat());
        assertEquals(404, responses.status());
        assertEquals(900, responses.window());
        assertEquals("stats:crawler:host1:link:404", responses.counter());

        StatsKey intake = StatsKey.parse("stats:kafka-monitor:total:3600").orElseThrow();
        assertEquals(3600, intake.window());
        assertEquals("stats:kafka-monitor:total", intake.counter());

        assertTrue(StatsKey.parse("stats:crawler:host1:link:200:lifetime").isEmpty(), "a lifetime HyperLogLog");
        assertTrue(StatsKey.parse("stats:kafka-monitor:total:lifetime").isEmpty());
        assertTrue(StatsKey.parse("crawl:link:app:c1").isEmpty());
    }
}
