package org.scrapycluster.crawler.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.crawler.links.Link;
import org.scrapycluster.crawler.pipeline.ResultMessage.Omitted;

import com.fasterxml.jackson.databind.JsonNode;

/** What a result's message leaves out to fit Kafka's limit, and when it cannot fit at all. */
class FittedMessageTest {

    private static final Instant TIME = Instant.parse("2026-03-01T10:22:33Z");
    private static final Json JSON = new Json(new JsonLimits(64, 10_000_000, 10_000_000));
    private static final ResultMessage MESSAGES = new ResultMessage(JSON, false);
    private static final int LIMIT = 4096;

    @Test
    void aMessageThatFitsGoesWhole() throws Exception {
        FittedMessage fitted = FittedMessage.of(MESSAGES, page("a".repeat(3000), 3, "v"), TIME, LIMIT);

        assertEquals(Omitted.NOTHING, fitted.omitted());
        JsonNode message = JSON.readTree(fitted.message());
        assertEquals(3000, message.get("body").asText().length());
        assertFalse(message.has("body_omitted"));
        assertFalse(message.has("links_omitted"));
    }

    @Test
    void aMessageTooLargeForItsBodyGoesWithoutItsBodyButWithItsLinks() throws Exception {
        FittedMessage fitted = FittedMessage.of(MESSAGES, page("a".repeat(5000), 3, "v"), TIME, LIMIT);

        assertEquals(Omitted.BODY, fitted.omitted());
        assertTrue(fitted.message().length <= LIMIT);
        JsonNode message = JSON.readTree(fitted.message());
        assertTrue(message.get("body_omitted").asBoolean());
        assertEquals(3, message.get("links").size());
        assertFalse(message.has("links_omitted"));
    }

    @Test
    void aMessageStillTooLargeWithoutItsBodyGoesWithoutItsLinksTooAndSaysSo() throws Exception {
        FittedMessage fitted = FittedMessage.of(MESSAGES, page("a".repeat(5000), 8000, "v"), TIME, LIMIT);

        assertEquals(Omitted.BODY_AND_LINKS, fitted.omitted());
        assertTrue(fitted.message().length <= LIMIT);
        JsonNode message = JSON.readTree(fitted.message());
        assertEquals("", message.get("body").asText());
        assertTrue(message.get("body_omitted").asBoolean());
        assertEquals(0, message.get("links").size());
        assertTrue(message.get("links_omitted").asBoolean());
        assertEquals("v", message.get("attrs").get("k").asText(), "the rest of the message is kept");
    }

    @Test
    void aMessageWhoseAttrsAloneAreTooLargeDoesNotFitAtAll() {
        FittedMessage withLinks = FittedMessage.of(MESSAGES, page("a".repeat(5000), 3, "v".repeat(10_000)), TIME, LIMIT);
        FittedMessage withoutLinks = FittedMessage.of(MESSAGES, page("a".repeat(5000), 0, "v".repeat(10_000)), TIME, LIMIT);

        assertFalse(withLinks.fits());
        assertNull(withLinks.message());
        assertEquals(Omitted.BODY_AND_LINKS, withLinks.omitted());
        assertFalse(withoutLinks.fits());
        assertEquals(Omitted.BODY, withoutLinks.omitted(), "no links to leave out: not written a third time");
    }

    @Test
    void aMessageIsWrittenUpToItsLimitAndNoFurther() {
        CrawlResult item = page("a".repeat(50_000), 3, "v");
        byte[] whole = MESSAGES.encode(item, TIME);

        assertArrayEquals(whole, MESSAGES.encode(item, TIME, Omitted.NOTHING, whole.length), "exactly at the limit: written");
        assertNull(MESSAGES.encode(item, TIME, Omitted.NOTHING, whole.length - 1), "a byte over: given up");
        assertArrayEquals(whole, MESSAGES.encode(item, TIME), "the next message of the thread has no limit");
    }

    private static CrawlResult page(String body, int links, String attr) {
        List<Link> listed = IntStream.range(0, links).mapToObj(i -> new Link("http://shop.test/item/" + i, "item " + i)).toList();
        return CrawledPage.of(body).attrs(Map.of("k", attr)).responseHeaders(Map.of()).links(listed).result();
    }
}
