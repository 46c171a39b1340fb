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
 * fetched meanwhile is not lost — it is published once Kafka is back — and the node goes on crawling
 * without a restart.
 */
@ExtendWith(SharedStack.class)
class KafkaOutageTest {

    private static final Duration WAIT = Duration.ofMinutes(2);

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
            bed.set("ROBOTSTXT_OBEY", false).set("LEASE_SECONDS", 3);
            bed.startNode();
            String before = origin.url(0, StatusRoute.path(200) + "&page=before");
            bed.seed(CrawlerTestBed.feedItem(before, "before"));
            assertEquals(List.of(before), CrawlerTestBed.urls(bed.awaitResults(1)));

            kafka.close();
            String during = origin.url(0, StatusRoute.path(200) + "&page=during");
            bed.seed(CrawlerTestBed.feedItem(during, "during"));
            Awaitility.await().atMost(WAIT).until(() -> origin.requests().forPath(StatusRoute.PATH).size() >= 2);
            Thread.sleep(5_000);
            assertTrue(bed.redis().sync().zcard(Keyspace.leases("link")) <= 1, "the page waits for Kafka under its lease, or back in its queue");

            kafka = EmbeddedKafka.start(port, 1, DataDirectory.kept(kafkaData));
            String after = origin.url(0, StatusRoute.path(200) + "&page=after");
            bed.seed(CrawlerTestBed.feedItem(after, "after"));
            Awaitility.await().atMost(WAIT).until(() -> new TreeSet<>(CrawlerTestBed.urls(bed.results())).containsAll(Set.of(during, after)));
            assertEquals(Set.of(before, during, after), new TreeSet<>(CrawlerTestBed.urls(bed.awaitResults(3))));
            // a lease is acknowledged after Kafka has taken its page
            Awaitility.await().atMost(WAIT).untilAsserted(() ->
                    assertEquals(0, bed.redis().sync().zcard(Keyspace.leases("link")), "every lease is acknowledged"));
        } finally {
            kafka.close();
        }
    }
}
