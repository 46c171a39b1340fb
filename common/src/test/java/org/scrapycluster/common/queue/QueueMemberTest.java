package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;

import org.junit.jupiter.api.Test;

class QueueMemberTest {

    @Test
    void readsTheKafkaMonitorsFeedItem() throws Exception {
        String raw = Members.resource("feed-item.json");
        QueueMember member = QueueMember.parse(raw);
        assertEquals(QueueMember.Shape.FEED_ITEM, member.shape());
        assertEquals("https://example.com/", member.url());
        assertEquals("app1", member.appid());
        assertEquals("c1", member.crawlid());
        assertEquals("link", member.spiderid());
        assertEquals(50, member.priority());
        assertEquals(0, member.expires());
        assertEquals(raw, member.raw());
        assertFalse(member.expiredAt(Instant.now()));
    }

    @Test
    void readsACrawlersSerializedRequestFromMeta() throws Exception {
        QueueMember member = QueueMember.parse(Members.resource("serialized-request.json"));
        assertEquals(QueueMember.Shape.SERIALIZED_REQUEST, member.shape());
        assertEquals("https://example.com/about", member.url(), "the request's own URL, not the seed in meta");
        assertEquals(40, member.priority(), "the crawl priority from meta, not the framework priority 0");
        assertEquals(1_709_292_000L, member.expires());
        assertEquals(new CrawlRef("link", "app1", "c1"), member.crawl("link"));
        assertTrue(member.expiredAt(Instant.ofEpochSecond(1_709_292_000L)));
        assertFalse(member.expiredAt(Instant.ofEpochSecond(1_709_291_999L)));
    }

    /** The schema takes any integer: one beyond a long's range is the farthest time that way, not a wrapped one. */
    @Test
    void anExpiryOrPriorityBeyondALongIsTheFarthestThatWay() throws Exception {
        QueueMember far = QueueMember.parse("{\"url\":\"https://example.com/\",\"appid\":\"a\",\"crawlid\":\"c\","
                + "\"priority\":99999999999,\"expires\":18446744073709551617}");
        assertEquals(Long.MAX_VALUE, far.expires());
        assertFalse(far.expiredAt(Instant.now()), "it wrapped to 1, long past");
        assertEquals(Integer.MAX_VALUE, far.priority());
        QueueMember past = QueueMember.parse("{\"url\":\"https://example.com/\",\"appid\":\"a\",\"crawlid\":\"c\","
                + "\"priority\":1,\"expires\":-18446744073709551617}");
        assertTrue(past.expiredAt(Instant.now()));
    }

    @Test
    void reportsEveryMalformedMemberWithoutThrowingAnythingElse() {
        String[] lines = Members.resource("malformed.txt").split("\n");
        assertEquals(9, lines.length);
        for (String line : lines) {
            MalformedQueueMemberException e = assertThrows(MalformedQueueMemberException.class, () -> QueueMember.parse(line), line);
            assertEquals(line, e.raw());
        }
    }

    @Test
    void saysWhatIsMissing() {
        MalformedQueueMemberException e = assertThrows(MalformedQueueMemberException.class,
                () -> QueueMember.parse("{\"url\":\"https://example.com/\",\"crawlid\":\"c1\",\"priority\":5}"));
        assertTrue(e.getMessage().startsWith("no string 'appid'"), e.getMessage());
    }
}
