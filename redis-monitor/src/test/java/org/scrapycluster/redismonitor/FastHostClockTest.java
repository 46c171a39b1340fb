package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

/** A Redis monitor on a host whose clock is two hours fast keeps Redis's time (docs/operations.md, "Clocks"). */
@ExtendWith(SharedStack.class)
class FastHostClockTest {

    @Test
    void expiresACrawlWhenRedisSaysAndStampsItsAnswerWithRedissTime(EmbeddedStack stack) {
        try (MonitorFixture fixture = MonitorFixture.on(stack)) {
            QueueState queues = new QueueState(fixture.redis(), MonitorFixture.unique("spider"));
            String appid = MonitorFixture.unique("app");
            long now = MonitorFixture.now();
            CrawlRef inAnHour = new CrawlRef(queues.spider(), appid, "in-an-hour");
            queues.seed("a.com", queues.feedItem("https://a.com/later", appid, inAnHour.crawlid(), 1, now + 3600));
            queues.seed("a.com", queues.feedItem("https://a.com/soon", appid, "soon", 1, now + 1));

            fixture.startMonitor(Clock.offset(Clock.systemUTC(), Duration.ofHours(2)));
            JsonNode expired = fixture.answers().await(message -> "expired".equals(message.path("action").asText()));
            long answeredBy = MonitorFixture.now();

            assertEquals("soon", expired.path("crawlid").asText(), "the host's clock is past the other crawl's expiry, Redis's is not");
            assertTrue(Math.abs(expired.path("server_time").asLong() - answeredBy) <= 5, "server_time on Redis's time: " + expired);
            long recordSecond = fixture.answers().receivedWithTimes().getFirst().timestamp() / 1000;
            assertTrue(Math.abs(recordSecond - answeredBy) <= 5, "the record stamped with Redis's time: " + recordSecond);
            List<JsonNode> expiries = fixture.answers().readFor(Duration.ofSeconds(1)).stream()
                    .filter(message -> "expired".equals(message.path("action").asText())).toList();
            assertEquals(List.of(expired), expiries, "scanned again: still only the crawl whose time came");
            assertEquals(String.valueOf(now + 3600), fixture.redis().sync().get(inAnHour.timeoutKey()));
            fixture.redis().sync().del(inAnHour.timeoutKey()); // no later test's monitor expires it
        }
    }
}
