package org.scrapycluster.standalone.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.PageRef;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;
import org.scrapycluster.redismonitor.OutboundAnswers;

/**
 * Crawls from a client's request to the results topic, through every service: the request goes to
 * {@code <prefix>.incoming}, the Kafka monitor validates it and queues its seed in Redis, a crawler
 * node fetches the test origin's 30-page site and publishes each page on
 * {@code <prefix>.crawled_firehose}, and the Redis monitor announces on the outbound topic, once,
 * that the crawl is complete.
 */
@ExtendWith(SharedStack.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrawlThroughKafkaAcceptanceTest {

    private static final SyntheticSite SITE = SyntheticSite.builder().seed(11).domains(1).pagesPerDomain(30).linksPerPage(4)
            .pageBytes(800).build();
    private static final PageRef START = new PageRef(0, 0);
    private static final String USER_AGENT = "acceptance-test/1.0";
    /** How long the outbound topic is watched for a second announcement: three quiet periods. */
    private static final Duration WATCH = Duration.ofSeconds(3);

    private TestOrigin origin;
    private AcceptanceCluster cluster;

    @BeforeAll
    void start(EmbeddedStack stack) {
        origin = TestOrigin.start(SITE);
        cluster = new AcceptanceCluster(stack).throttle(1000, 1, false).startWithCrawlers(1);
    }

    @AfterAll
    void stop() {
        cluster.close();
        origin.close();
    }

    @Test
    void aRequestOnKafkaComesOutAsResultsWithEveryFieldOfTheResultMessage() {
        String appid = AcceptanceCluster.unique("app");
        cluster.send("url", origin.pageUrl(START), "appid", appid, "crawlid", "fields", "maxdepth", 1,
                "attrs", Map.of("customer", "acme"), "useragent", USER_AGENT);

        List<String> expected = SITE.reachable(START, 1, page -> true).stream().map(origin::pageUrl).toList();
        List<JsonNode> results = awaitResults(appid, expected.size()).stream().map(OutboundAnswers.Received::answer).toList();
        assertEquals(new TreeSet<>(expected), results.stream().map(result -> result.get("url").asText())
                .collect(Collectors.toCollection(TreeSet::new)));

        JsonNode seed = results.stream().filter(result -> result.get("url").asText().equals(origin.pageUrl(START))).findFirst()
                .orElseThrow();
        List<String> fields = new ArrayList<>();
        seed.fieldNames().forEachRemaining(fields::add);
        assertEquals(List.of("appid", "attrs", "body", "crawlid", "encoding", "links", "request_headers", "response_headers",
                "response_url", "status_code", "status_msg", "timestamp", "url"), fields, "the fields of docs/compatibility.md §1.3, keys sorted");
        assertEquals(Map.of("appid", appid, "crawlid", "fields", "response_url", origin.pageUrl(START), "status_code", "200",
                "status_msg", "OK", "encoding", "utf-8"), Map.of("appid", seed.get("appid").asText(), "crawlid",
                seed.get("crawlid").asText(), "response_url", seed.get("response_url").asText(), "status_code",
                seed.get("status_code").asText(), "status_msg", seed.get("status_msg").asText(), "encoding",
                seed.get("encoding").asText()));
        assertTrue(seed.get("status_code").isInt(), "status_code is a number");
        assertEquals("acme", seed.get("attrs").get("customer").asText(), "attrs pass through");
        assertEquals(new String(SITE.render(START, origin::baseUrl), StandardCharsets.UTF_8), seed.get("body").asText());
        assertTrue(seed.get("timestamp").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{6})?"),
                seed.get("timestamp").asText());
        assertEquals(USER_AGENT, seed.get("request_headers").get("User-Agent").get(0).asText(), "the crawl's useragent is sent");
        assertTrue(seed.get("response_headers").get("Content-Type").get(0).asText().startsWith("text/html"),
                "header values are lists: " + seed.get("response_headers"));
        List<String> links = new ArrayList<>();
        seed.get("links").forEach(link -> links.add(link.get("url").asText()));
        assertEquals(SITE.links(START).stream().map(origin::pageUrl).toList(), links, "the links followed, in page order");
        results.stream().filter(result -> result != seed)
                .forEach(result -> assertEquals(0, result.get("links").size(), "nothing is followed at the depth limit"));
    }

    @Test
    void aMaxdepthTwoCrawlIsAnnouncedCompleteOnceAfterItsLastResult() {
        String appid = AcceptanceCluster.unique("app");
        cluster.send("url", origin.pageUrl(START), "appid", appid, "crawlid", "whole-site", "maxdepth", 2);

        cluster.outbound().await(message -> isCompletionOf(message, appid));
        cluster.outbound().readFor(WATCH);
        List<OutboundAnswers.Received> completions = cluster.outbound().receivedWithTimes().stream()
                .filter(received -> isCompletionOf(received.answer(), appid)).toList();
        Set<String> expected = SITE.reachable(START, 2, page -> true).stream().map(origin::pageUrl).collect(Collectors.toSet());
        List<OutboundAnswers.Received> results = awaitResults(appid, expected.size());

        assertEquals(1, completions.size(), "announced once: " + completions);
        assertEquals(expected, results.stream().map(result -> result.answer().get("url").asText()).collect(Collectors.toSet()));
        assertEquals(expected.size(), results.size(), "each page once");
        assertEquals(expected.size(), completions.getFirst().answer().get("total_pages").asInt());
        long lastResult = results.stream().mapToLong(OutboundAnswers.Received::timestamp).max().orElseThrow();
        assertTrue(completions.getFirst().timestamp() > lastResult, "announced at " + completions.getFirst().timestamp()
                + ", before the last result at " + lastResult);
    }

    private static boolean isCompletionOf(JsonNode message, String appid) {
        return "complete".equals(message.path("action").asText()) && appid.equals(message.path("appid").asText());
    }

    /** Waits until {@code count} results of {@code appid} have arrived; returns them all. */
    private List<OutboundAnswers.Received> awaitResults(String appid, int count) {
        Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> {
            cluster.results().readFor(Duration.ofMillis(100));
            return resultsOf(appid).size() >= count;
        });
        return resultsOf(appid);
    }

    private List<OutboundAnswers.Received> resultsOf(String appid) {
        return cluster.results().receivedWithTimes().stream().filter(result -> appid.equals(result.answer().path("appid").asText()))
                .toList();
    }
}
