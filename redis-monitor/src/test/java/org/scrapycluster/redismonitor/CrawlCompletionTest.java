package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.scrapycluster.redismonitor.AnswerFixtures.assertAnswer;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.CrawlCounts;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

/**
 * Crawl completion with two monitors and a crawl simulated through the lease API: announced once,
 * only after nothing has been pending for the quiet period, with the pages its crawlers published.
 */
@ExtendWith(SharedStack.class)
class CrawlCompletionTest {

    private static final Duration QUIET = Duration.ofSeconds(1);

    @Test
    void announcesAFinishedCrawlOnceAfterTheQuietPeriod(EmbeddedStack stack) {
        try (MonitorFixture fixture = MonitorFixture.on(stack, "CRAWL_COMPLETE_QUIET_SECONDS", "1")) {
            fixture.startMonitor();
            fixture.startMonitor();
            QueueState queues = new QueueState(fixture.redis(), MonitorFixture.unique("spider"));
            String appid = MonitorFixture.unique("app");
            long seeded = MonitorFixture.now();
            for (int i = 0; i < 3; i++) {
                queues.seed("a.com", queues.feedItem("https://a.com/" + i, appid, "c1", 1, 0));
            }
            queues.seed("b.com", queues.feedItem("https://b.com/", appid, "c2", 1, OneMonitorTest.FAR));
            String first = queues.handOut("a.com");
            String second = queues.handOut("a.com");
            String third = queues.handOut("a.com");
            queues.ack(first, true);
            queues.ack(second, true);
            queues.ack(queues.handOut("b.com"), false);

            fixture.answers().await(answer -> "complete".equals(answer.path("action").asText())
                    && "c2".equals(answer.path("crawlid").asText()));
            String timeout = new CrawlRef(queues.spider(), appid, "c2").timeoutKey();
            assertEquals(String.valueOf(OneMonitorTest.FAR), fixture.redis().sync().get(timeout),
                    "a finished crawl keeps its timeout, for the expire job");
            List<OutboundAnswers.Received> whileLeased = receivedFor(fixture, QUIET.multipliedBy(2));
            assertTrue(completions(whileLeased, queues.spider(), "c1").isEmpty(), "c1 still has a leased request: " + whileLeased);

            long from = MonitorFixture.now();
            long lastAck = System.nanoTime();
            queues.ack(third, false);
            fixture.answers().await(answer -> "complete".equals(answer.path("action").asText())
                    && "c1".equals(answer.path("crawlid").asText()));
            List<OutboundAnswers.Received> after = receivedFor(fixture, QUIET.multipliedBy(2));
            List<OutboundAnswers.Received> announced = completions(after, queues.spider(), "c1");
            assertEquals(1, announced.size(), "announced once by one of the two monitors: " + after);
            assertTrue(announced.get(0).readAtNanos() - lastAck >= QUIET.toNanos(), "announced before the quiet period had passed");
            assertAnswer("complete.json", Map.of("appid", appid, "crawlid", "c1", "spiderid", queues.spider()),
                    announced.get(0).answer(), from, MonitorFixture.now());
            long started = announced.get(0).answer().get("start_time").asLong();
            assertTrue(started >= seeded && started <= from, "started when its first request was queued: " + started);
            assertEquals(1, completions(after, queues.spider(), "c2").size(), "c2 is not announced again");
            assertTrue(new CrawlCounts(fixture.redis()).crawl(new CrawlRef(queues.spider(), appid, "c1")).isEmpty(), "retired");
        }
    }

    /**
     * As the original's expire job, which announces every crawl with an {@code expires} at that time, finished or not, and
     * purges what the crawl queued by then: clients of the original wait for that announcement, which knows no
     * {@code complete}.
     */
    @Test
    void aCrawlFinishedBeforeItsExpiresIsAnnouncedExpiredAtThatTimeWithWhatLaterSeedsQueued(EmbeddedStack stack) {
        try (MonitorFixture fixture = MonitorFixture.on(stack, "CRAWL_COMPLETE_QUIET_SECONDS", "1")) {
            fixture.startMonitor();
            QueueState queues = new QueueState(fixture.redis(), MonitorFixture.unique("spider"));
            String appid = MonitorFixture.unique("app");
            long expires = MonitorFixture.now() + 6;
            queues.seed("a.com", queues.feedItem("https://a.com/", appid, "c1", 1, expires));
            queues.ack(queues.handOut("a.com"), true);
            fixture.answers().await(answer -> "complete".equals(answer.path("action").asText())
                    && "c1".equals(answer.path("crawlid").asText()));

            queues.seed("b.com", queues.feedItem("https://b.com/", appid, "c1", 1, 0));
            JsonNode expired = fixture.answers().await(answer -> "expired".equals(answer.path("action").asText())
                    && "c1".equals(answer.path("crawlid").asText()));
            assertTrue(expired.path("server_time").asLong() >= expires, "expired before its time: " + expired);
            assertEquals(1, expired.path("total_expired").asLong(), "the later seed is purged: " + expired);
            assertEquals(0, fixture.redis().sync().zcard(new QueueKey(queues.spider(), "b.com").key()));
        }
    }

    @Test
    void aCrawlWhoseAccountingRedisRefusesHoldsUpNoOther(EmbeddedStack stack) {
        try (MonitorFixture fixture = MonitorFixture.on(stack, "CRAWL_COMPLETE_QUIET_SECONDS", "1")) {
            QueueState queues = new QueueState(fixture.redis(), MonitorFixture.unique("spider"));
            String appid = MonitorFixture.unique("app");
            // the oldest quiet crawl, with an accounting key of another type (hand-edited)
            CrawlRef broken = new CrawlRef(queues.spider(), appid, "broken");
            fixture.redis().sync().set(broken.accountingKey(), "not a hash");
            fixture.redis().sync().zadd(Keyspace.CRAWLS_ACTIVE, 1.0, broken.name());
            try {
                queues.seed("a.com", queues.feedItem("https://a.com/", appid, "c1", 1, 0));
                queues.ack(queues.handOut("a.com"), true);
                fixture.startMonitor();
                fixture.answers().await(answer -> "complete".equals(answer.path("action").asText())
                        && "c1".equals(answer.path("crawlid").asText()));
                assertEquals(1.0, fixture.redis().sync().zscore(Keyspace.CRAWLS_ACTIVE, broken.name()),
                        "the broken crawl stays, for when its key is repaired");
            } finally {
                fixture.redis().sync().zrem(Keyspace.CRAWLS_ACTIVE, broken.name());
                fixture.redis().sync().del(broken.accountingKey());
            }
        }
    }

    private static List<OutboundAnswers.Received> receivedFor(MonitorFixture fixture, Duration time) {
        fixture.answers().readFor(time);
        return fixture.answers().receivedWithTimes();
    }

    private static List<OutboundAnswers.Received> completions(List<OutboundAnswers.Received> received, String spider, String crawlid) {
        return received.stream().filter(message -> "complete".equals(message.answer().path("action").asText())
                && spider.equals(message.answer().path("spiderid").asText())
                && crawlid.equals(message.answer().path("crawlid").asText())).toList();
    }
}
