package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.EnqueueRequest;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

/** The probe answers "duplicate" exactly when the enqueue script would, against a real Redis. */
@ExtendWith(SharedStack.class)
class DuplicateProbeTest {

    private final String spider = "probe" + UUID.randomUUID().toString().substring(0, 8);
    private final String dupefilter = Keyspace.dupefilter(spider, "crawl1");
    private final RedisConnection redis;
    private final DuplicateProbe probe;

    DuplicateProbeTest(EmbeddedStack stack) {
        this.redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()));
        this.probe = new DuplicateProbe(redis);
    }

    @AfterEach
    void cleanUp() {
        redis.sync().del(dupefilter, spider + ":blacklist");
        redis.close();
    }

    @Test
    void aFingerprintInTheDupefilterIsADuplicateAndRefreshesItsTtl() {
        redis.sync().sadd(dupefilter, "seen");
        redis.sync().expire(dupefilter, 5);

        assertEquals(List.of(true, false), redis.await(probe.duplicates(List.of(question("seen", "0"), question("new", "0")))));
        assertTrue(redis.sync().ttl(dupefilter) > 500, "the dupefilter lives DUPEFILTER_TIMEOUT after this use");
        assertEquals(List.of("seen"), List.copyOf(redis.sync().smembers(dupefilter)), "nothing is added");
    }

    @Test
    void aStoppedOrExpiredCrawlIsLeftToTheEnqueueScript() {
        redis.sync().sadd(dupefilter, "seen");
        long now = System.currentTimeMillis() / 1000;

        assertEquals(List.of(false, true, true), redis.await(probe.duplicates(List.of(question("seen", Long.toString(now - 10)),
                question("seen", Long.toString(now + 3600)), question("seen", "1.5e12")))));

        redis.sync().sadd(spider + ":blacklist", "app1||crawl1");
        assertEquals(List.of(false), redis.await(probe.duplicates(List.of(question("seen", "0")))));
    }

    @Test
    void noQuestionsNeedNoCall() {
        assertEquals(List.of(), probe.duplicates(List.of()).join());
    }

    private DuplicateProbe.Question question(String fingerprint, String expires) {
        return new DuplicateProbe.Question(spider, "app1", "crawl1", expires,
                new EnqueueRequest.Dupefilter(dupefilter, fingerprint, Duration.ofSeconds(600)));
    }
}
