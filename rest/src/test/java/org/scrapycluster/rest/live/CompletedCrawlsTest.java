package org.scrapycluster.rest.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class CompletedCrawlsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long STARTED_MILLIS = 1_795_533_000_000L;

    private final CompletedCrawls ended = new CompletedCrawls(3,
            crawl -> crawl.crawlid().equals("seen") ? OptionalLong.of(STARTED_MILLIS) : OptionalLong.empty());

    @Test
    void aStopAnswerListsItsCrawlAsStoppedWithTheRequestsPurged() throws Exception {
        ended.accept(JSON.readTree("""
                {"action": "stop", "spiderid": "link", "appid": "app1", "crawlid": "seen", "total_purged": 2008,
                 "uuid": "u-20", "server_time": 1795533090}"""));

        JsonNode row = ended.rows().get(0);
        assertEquals(JSON.readTree("""
                {"appid": "app1", "crawlid": "seen", "spiderid": "link", "end": "stopped", "total_pages": null,
                 "total_purged": 2008, "server_time": 1795533090, "duration_seconds": 90}"""), JSON.readTree(row.toString()));
    }

    @Test
    void anExpiryListsItsCrawlAsExpiredWithTheRequestsPurged() throws Exception {
        ended.accept(JSON.readTree("""
                {"action": "expired", "spiderid": "link", "appid": "app1", "crawlid": "seen", "total_expired": 15,
                 "server_time": 1795533090}"""));

        JsonNode row = ended.rows().get(0);
        assertEquals("expired", row.get("end").asText());
        assertEquals(15, row.get("total_purged").asLong(), row.toString());
    }

    @Test
    void aCompletionTakesItsDurationFromTheStartItAnnouncesOverTheOneTheGatewaySaw() throws Exception {
        ended.accept(JSON.readTree("""
                {"action": "complete", "spiderid": "link", "appid": "app1", "crawlid": "seen", "total_pages": 40,
                 "server_time": 1795533090, "start_time": 1795532990}"""));
        ended.accept(JSON.readTree("""
                {"action": "complete", "spiderid": "link", "appid": "app1", "crawlid": "seen", "total_pages": 40,
                 "server_time": 1795533090, "start_time": null}"""));

        assertEquals(90, ended.rows().get(0).get("duration_seconds").asLong(), "no start announced: the one the gateway saw");
        assertEquals(100, ended.rows().get(1).get("duration_seconds").asLong());
    }

    @Test
    void aSecondStopOfACrawlEndsNothingAndIsNotListed() throws Exception {
        ended.accept(stop("c1", 12));
        ended.accept(complete("c2"));
        ended.accept(stop("c1", 0));

        assertEquals(2, ended.rows().size(), ended.rows().toString());
        assertEquals(12, ended.rows().get(1).get("total_purged").asLong());
    }

    @Test
    void aStopAfterTheCrawlCompletedIsListed() throws Exception {
        ended.accept(complete("c1"));
        ended.accept(stop("c1", 0));

        assertEquals("stopped", ended.rows().get(0).get("end").asText());
        assertEquals("complete", ended.rows().get(1).get("end").asText());
        assertTrue(ended.rows().get(1).get("total_purged").isNull());
    }

    /** A crawl with an {@code expires} is announced expired at that time, finished or not, as in the original. */
    @Test
    void theExpiryOfACompletedCrawlIsListedOnlyWhenItPurgedSomething() throws Exception {
        ended.accept(complete("c1"));
        ended.accept(expired("c1", 0));
        assertEquals(1, ended.rows().size(), ended.rows().toString());

        ended.accept(expired("c1", 3));
        assertEquals("expired", ended.rows().get(0).get("end").asText(), "seeds sent after its completion were purged");
        ended.accept(expired("c2", 0));
        assertEquals("c2", ended.rows().get(0).get("crawlid").asText(), "a crawl not listed as complete ends by its expiry");
    }

    @Test
    void otherAnswersAndStopOrExpiryAnswersWithoutACountAreNotCrawlEnds() throws Exception {
        ended.accept(JSON.readTree("""
                {"action": "info", "spiderid": "link", "appid": "app1", "crawlid": "c1", "uuid": "u-1", "total_pending": 0}"""));
        ended.accept(JSON.readTree("""
                {"action": "stop", "spiderid": "link", "appid": "app1", "crawlid": "c1", "uuid": "u-2", "total_purged": "12"}"""));
        ended.accept(JSON.readTree("""
                {"action": "stop", "spiderid": "link", "appid": 7, "crawlid": "c1", "uuid": "u-3", "total_purged": 12}"""));
        ended.accept(JSON.readTree("""
                {"action": "expired", "spiderid": "link", "appid": "app1", "crawlid": "c1", "server_time": 1795533090,
                 "error": "Could not process the request within the failure limit: a bad timeout"}"""));

        assertEquals(0, ended.rows().size(), ended.rows().toString());
    }

    @Test
    void theNewestAreKept() throws Exception {
        for (String crawlid : new String[] {"c1", "c2", "c3", "c4"}) {
            ended.accept(stop(crawlid, 1));
        }

        assertEquals(3, ended.rows().size());
        assertEquals("c4", ended.rows().get(0).get("crawlid").asText());
        assertEquals("c2", ended.rows().get(2).get("crawlid").asText());
    }

    private static JsonNode stop(String crawlid, long purged) throws Exception {
        return JSON.readTree("{\"action\": \"stop\", \"spiderid\": \"link\", \"appid\": \"app1\", \"crawlid\": \"" + crawlid
                + "\", \"total_purged\": " + purged + ", \"uuid\": \"u\", \"server_time\": 1795533100}");
    }

    private static JsonNode expired(String crawlid, long expired) throws Exception {
        return JSON.readTree("{\"action\": \"expired\", \"spiderid\": \"link\", \"appid\": \"app1\", \"crawlid\": \"" + crawlid
                + "\", \"total_expired\": " + expired + ", \"server_time\": 1795533200}");
    }

    private static JsonNode complete(String crawlid) throws Exception {
        return JSON.readTree("{\"action\": \"complete\", \"spiderid\": \"link\", \"appid\": \"app1\", \"crawlid\": \"" + crawlid
                + "\", \"total_pages\": 4, \"server_time\": 1795533000}");
    }
}
