package org.scrapycluster.common.keyspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.Test;

class CrawlerStatKeyTest {

    @Test
    void aHeartbeatIsReadAsTheNodesHostAndSpider() {
        CrawlerStatKey key = CrawlerStatKey.parse(Keyspace.CRAWLER_HEARTBEAT.fill("host1", "link", "0123456789ab")).orElseThrow();

        assertTrue(key.heartbeat());
        assertEquals("host1", key.host());
        assertEquals("link", key.spider());
    }

    @Test
    void aStatusCountIsReadWithItsCodeAndWindow() {
        CrawlerStatKey key = CrawlerStatKey.parse("stats:crawler:host1:link:200:3600").orElseThrow();

        assertFalse(key.heartbeat());
        assertEquals(new CrawlerStatKey("host1", "link", "200", "3600"), key);
    }

    @Test
    void aNameOfOtherPartsIsNeither() {
        assertEquals(Optional.empty(), CrawlerStatKey.parse("stats:crawler:host1:link"));
        assertEquals(Optional.empty(), CrawlerStatKey.parse("stats:crawler:host1:link:200:3600:extra"));
    }
}
