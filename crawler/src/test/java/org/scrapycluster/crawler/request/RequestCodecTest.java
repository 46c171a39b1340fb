package org.scrapycluster.crawler.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.queue.MalformedQueueMemberException;
import org.scrapycluster.common.queue.QueueMember;

/** Both queue member shapes become requests as the original's scheduler makes them (docs/compatibility.md §4.4, §10.3). */
class RequestCodecTest {

    private final RequestCodec codec = new RequestCodec();

    @Test
    void aFeedItemBecomesAGetWhoseMetaIsTheItemPlusDepthAndRetries() throws MalformedQueueMemberException {
        CrawlRequest request = codec.decode("{\"url\":\"www.example.com/a\",\"crawlid\":\"c1\",\"appid\":\"app\",\"spiderid\":\"link\"}");
        assertEquals("http://www.example.com/a", request.url(), "http:// when the URL has no scheme");
        assertEquals("GET", request.method());
        assertEquals(Set.of("url", "crawlid", "appid", "spiderid", "curdepth", "retry_times"), request.meta().keySet());
        assertEquals(0, request.meta().get("curdepth"));
        assertEquals(0, request.meta().get("retry_times"));
        assertFalse(request.dontFilter());
    }

    @Test
    void aStringCookieIsParsedAndAUserAgentBecomesTheHeader() throws MalformedQueueMemberException {
        CrawlRequest request = codec.decode("{\"url\":\"http://ex.com/\",\"crawlid\":\"c\",\"appid\":\"a\","
                + "\"cookie\":\"authenticated=true;privacy=10\",\"useragent\":\"Agent/2\"}");
        assertEquals(Map.of("authenticated", "true", "privacy", "10"), request.cookies());
        assertEquals("Agent/2", request.header("User-Agent").orElseThrow());
    }

    @Test
    void aSerializedRequestKeepsItsCookiesUnlessItsMetaHasACookieMap() throws MalformedQueueMemberException {
        String kept = "{\"url\":\"http://ex.com/p\",\"method\":\"POST\",\"headers\":{\"Referer\":[\"http://ex.com/\"]},\"body\":\"x=1\","
                + "\"cookies\":{\"k\":\"v\"},\"meta\":{\"crawlid\":\"c\",\"appid\":\"a\",\"priority\":-9,\"curdepth\":1},"
                + "\"dont_filter\":true}";
        CrawlRequest request = codec.decode(kept);
        assertEquals(Map.of("k", "v"), request.cookies());
        assertEquals("POST", request.method());
        assertEquals("x=1", request.body());
        assertEquals(List.of("http://ex.com/"), request.headers().get("Referer"));
        assertTrue(request.dontFilter());
        assertEquals(-9, request.priority());

        CrawlRequest replaced = codec.decode(kept.replace("\"curdepth\":1", "\"curdepth\":1,\"cookie\":{\"m\":\"n\"}"));
        assertEquals(Map.of("m", "n"), replaced.cookies());
    }

    @Test
    void requestsAreWrittenInTheSerializedShapeThatReadsBackTheSame() throws MalformedQueueMemberException {
        CrawlRequest request = codec.decode("{\"url\":\"http://ex.com/\",\"crawlid\":\"c\",\"appid\":\"a\",\"priority\":5,"
                + "\"ts\":1709288553.81,\"attrs\":{\"k\":[1,2]},\"expires\":0}").withHeader("User-Agent", "A/1");
        String member = codec.encode(request);
        assertTrue(member.startsWith("{\"url\":\"http://ex.com/\",\"meta\":{\"appid\":\"a\",\"crawlid\":\"c\",\"priority\":5,"
                + "\"expires\":0,\"url\":\"http://ex.com/\",\"ts\""), "the crawl fields first, as the hand-out reads them: " + member);
        assertTrue(member.endsWith("},\"callback\":\"parse\",\"errback\":null,\"method\":\"GET\",\"headers\":{\"User-Agent\":[\"A/1\"]},"
                + "\"body\":\"\",\"cookies\":{},\"_encoding\":\"utf-8\",\"priority\":0,\"dont_filter\":false,\"flags\":[]}"), member);
        assertTrue(member.contains("\"ts\":1709288553.81"), "fractions keep their decimal form: " + member);
        assertEquals(request, codec.decode(member));
        QueueMember read = QueueMember.parse(member);
        assertEquals(QueueMember.Shape.SERIALIZED_REQUEST, read.shape());
        assertEquals(5, read.priority());
    }

    /**
     * Numbers of a request's free-form fields come back as the Kafka monitor wrote them, as Python reads and writes them:
     * a negative zero stays negative (Python's float does), and an overflowing number the Kafka monitor wrote as the
     * string {@code "Infinity"} stays that string (docs/differences.md).
     */
    @Test
    void aNegativeZeroAndAnInfinityWrittenAsTextComeBackAsTheyWereWritten() throws MalformedQueueMemberException {
        CrawlRequest request = codec.decode("{\"url\":\"http://ex.com/\",\"crawlid\":\"c\",\"appid\":\"a\","
                + "\"attrs\":{\"zero\":-0.0,\"tiny\":-0.0e-5,\"half\":-0.5,\"plain\":0.0,\"huge\":\"Infinity\",\"exact\":0.10000000000000001}}");

        String member = codec.encode(request);

        assertTrue(member.contains("\"attrs\":{\"zero\":-0.0,\"tiny\":-0.0,\"half\":-0.5,\"plain\":0.0,\"huge\":\"Infinity\","
                + "\"exact\":0.10000000000000001}"), member);
        assertEquals(request, codec.decode(member));
    }

    @Test
    void aMemberThatIsNoRequestIsRefusedWithTheReason() {
        assertThrows(MalformedQueueMemberException.class, () -> codec.decode("not json"));
        assertThrows(MalformedQueueMemberException.class, () -> codec.decode("{\"crawlid\":\"c\"}"));
    }

    @Test
    void theSchemeRuleLeavesPortsAlone() {
        assertEquals("http://localhost:8080/x", RequestCodec.withScheme("localhost:8080/x"));
        assertEquals("https://ex.com/", RequestCodec.withScheme("https://ex.com/"));
    }
}
