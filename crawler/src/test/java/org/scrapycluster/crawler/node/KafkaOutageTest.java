package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedKafka;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.StatusRoute;
import org.scrapycluster.embedded.origin.TestOrigin;

/**
 * Kafka goes away under a running crawler node while it crawls, and comes back with its data: the page
 * fetched meanwhile is not lost — it is published once Kafka is back —, while Kafka cannot take a page the node
 * fetches one request at a time rather than pages it would have to give back, and it goes on crawling at full
 * concurrency without a restart.
 */
@ExtendWith(SharedStack.class)
class KafkaOutageTest {

    private static final Duration WAIT = Duration.ofMinutes(2);
    /** How long the producer tries to deliver a page, or waits for the topic's partitions, before it fails it. */
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(4);

    private final EmbeddedStack stack;

    KafkaOutageTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @Test
    void aPageFetchedWhileKafkaIsAwayIsPublishedWhenItIsBack(@TempDir Path kafkaData) throws InterruptedException {
        int port = FreePorts.pick();
        EmbeddedKafka kafka = EmbeddedKafka.start(port, 1, DataDirectory.kept(kafkaData));
        try (TestOrigin origin = TestOrigin.builder().domains(1).start();
             CrawlerTestBed bed = new CrawlerTestBed(stack, stack.redisPort(), kafka.bootstrapServers())) {
            bed.set("ROBOTSTXT_OBEY", false).set("LEASE_SECONDS", 3)
                    .set("KAFKA_CLIENT_PROPERTIES", "{delivery.timeout.ms: " + DELIVERY_TIMEOUT.toMillis() + ", max.block.ms: " + DELIVERY_TIMEOUT.toMillis()
                            + ", request.timeout.ms: 3000}");
            bed.startNode();
            String before = origin.url(0, StatusRoute.path(200) + "&page=before");
            bed.seed(CrawlerTestBed.feedItem(before, "before"));
            assertEquals(List.of(before), CrawlerTestBed.urls(bed.awaitResults(1)));
            assertEquals(0, bed.gauge("crawler.publishing.stalled"));

            kafka.close();
            String during = origin.url(0, StatusRoute.path(200) + "&page=during");
            bed.seed(CrawlerTestBed.feedItem(during, "during"));
            Awaitility.await().atMost(WAIT).until(() -> bed.gauge("crawler.publishing.stalled") == 1);

            Set<String> expected = new TreeSet<>(Set.of(before, during));
            for (int i = 0; i < 4; i++) {
                String stalled = origin.url(0, StatusRoute.path(200) + "&page=stalled" + i);
                bed.seed(CrawlerTestBed.feedItem(stalled, "stalled" + i));
                expected.add(stalled);
            }
            int fetched = origin.requests().forPath(StatusRoute.PATH).size();
            Thread.sleep(DELIVERY_TIMEOUT.multipliedBy(3).dividedBy(2).toMillis());
            assertTrue(origin.requests().forPath(StatusRoute.PATH).size() <= fetched + 2,
                    "one request at a time, each failing after the delivery timeout, not all five at once");
            assertTrue(bed.redis().sync().zcard(Keyspace.leases("link")) <= 2,
                    "the page in flight holds a lease, and the page given up before it until its lease expires");

            kafka = EmbeddedKafka.start(port, 1, DataDirectory.kept(kafkaData));
            Awaitility.await().atMost(WAIT).until(() -> bed.gauge("crawler.publishing.stalled") == 0);
            String after = origin.url(0, StatusRoute.path(200) + "&page=after");
            bed.seed(CrawlerTestBed.feedItem(after, "after"));
            expected.add(after);
            Awaitility.await().atMost(WAIT).until(() -> new TreeSet<>(CrawlerTestBed.urls(bed.results())).containsAll(expected));
            // a lease is acknowledged after Kafka has taken its page
            Awaitility.await().atMost(WAIT).untilAsserted(() ->
                    assertEquals(0, bed.redis().sync().zcard(Keyspace.leases("link")), "every lease is acknowledged"));
        } finally {
            kafka.close();
        }
    }
}
