package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import io.lettuce.core.Range;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.service.FatalExit;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.GatedPage;
import org.scrapycluster.embedded.origin.SlowBody;
import org.scrapycluster.embedded.origin.TestOrigin;

/**
 * No lost work: a crawler node in a child JVM is killed hard while it holds leases on slow pages; once the
 * leases expire, another node's reaper returns the requests to their queue and that node crawls them, so
 * every page of the crawl arrives on Kafka. A node killed after Kafka took a page but before Redis took its
 * acknowledgement has the page crawled again (twice, never zero times). A fetch slower than the lease
 * keeps its lease alive, even when the wall clock is set back meanwhile. A node stopped while fetching hands its lease back at once, and one stopped while a page
 * goes out keeps the page's lease until it is acknowledged. A node whose heap runs out ends its process with status 70, and
 * its request is crawled by another node.
 */
@ExtendWith(SharedStack.class)
class LeaseRecoveryTest {

    private static final int PAGES = 6;
    /** How long a stopped node lets its requests in flight finish in the tests whose request is still out when the fetcher or the pipelines close. */
    private static final Duration DRAIN = Duration.ofMillis(200);

    private final EmbeddedStack stack;

    LeaseRecoveryTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @Test
    void requestsLeasedByAKilledNodeAreCrawledByAnotherOne() throws IOException, InterruptedException {
        GatedPage gate = new GatedPage();
        try (TestOrigin origin = TestOrigin.builder().domains(1).route(GatedPage.PATH, gate).start();
             CrawlerTestBed bed = new CrawlerTestBed(stack)) {
            bed.set("LEASE_SECONDS", 2).set("ROBOTSTXT_OBEY", false).set("DOWNLOAD_TIMEOUT", 20);
            Set<String> urls = new TreeSet<>();
            for (int i = 0; i < PAGES; i++) {
                // held at the gate until the child is killed: the child asks for all six pages, and none can be published
                String url = origin.url(0, GatedPage.path("page" + i));
                urls.add(url);
                bed.seed(CrawlerTestBed.feedItem(url, "lease"));
            }

            Process child = ChildNode.start(bed, "256m").process();
            try {
                Awaitility.await().atMost(Duration.ofSeconds(60)).until(
                        () -> origin.requests().forPath(GatedPage.PATH).size() == PAGES);
                assertEquals(PAGES, bed.redis().sync().zcard(Keyspace.leases("link")), "the child holds every request");
            } finally {
                child.destroyForcibly();
                assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child did not die");
            }
            assertEquals(List.of(), bed.results(), "the child was killed before any page was published");

            gate.open(); // the pages answer the node that takes them over at once
            bed.startNode();
            List<String> published = CrawlerTestBed.urls(bed.awaitResults(PAGES));
            assertEquals(urls, new TreeSet<>(published));
            assertEquals(PAGES, published.size());
            // a lease is acknowledged after Kafka has taken its page
            Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertEquals(0, bed.redis().sync().zcard(Keyspace.leases("link"))));
        }
    }

    @Test
    void aNodeWhoseHeapRunsOutExitsWithStatus70SayingSoAndItsRequestIsCrawledByAnotherOne() throws IOException, InterruptedException {
        try (TestOrigin origin = TestOrigin.builder().domains(1).start(); CrawlerTestBed bed = new CrawlerTestBed(stack)) {
            String exhausting = FailingPipelines.HeapExhausted.class.getName();
            bed.set("LEASE_SECONDS", 2).set("ROBOTSTXT_OBEY", false).set("ITEM_PIPELINES", "{" + exhausting + ": 50}");
            String url = origin.url(0, "/exhausting.html");
            bed.seed(CrawlerTestBed.feedItem(url, "heap"));

            ChildNode child = ChildNode.start(bed, "256m");
            try {
                assertTrue(child.process().waitFor(60, TimeUnit.SECONDS), "the child did not exit");
                String output = child.log();
                assertEquals(FatalExit.STATUS, child.process().exitValue(), output);
                assertTrue(output.contains("The crawler failed with java.lang.OutOfMemoryError: Java heap space (thrown by a test"
                        + " pipeline), which it cannot go on from; the process exits with status 70, and the requests the node"
                        + " holds return to their queues"), output);
            } finally {
                child.process().destroyForcibly();
            }
            assertEquals(List.of(), bed.results(), "nothing was published");

            bed.set("ITEM_PIPELINES", "{" + exhausting + ": null}");
            bed.startNode();
            assertEquals(List.of(url), CrawlerTestBed.urls(bed.awaitResults(1)),
                    "the request was not lost: another node crawls it once its lease has expired");
        }
    }

    @Test
    void aFetchSlowerThanTheLeaseKeepsItsLeaseAndIsFetchedOnce() {
        try (TestOrigin origin = TestOrigin.builder().domains(1).start(); CrawlerTestBed bed = new CrawlerTestBed(stack)) {
            bed.set("LEASE_SECONDS", 2).set("ROBOTSTXT_OBEY", false).set("DOWNLOAD_TIMEOUT", 20);
            bed.startNode();
            bed.seed(CrawlerTestBed.feedItem(origin.url(0, SlowBody.path(200, 200, 10, 5000)), "slow"));

            assertEquals(1, bed.awaitResults(1).size());
            assertEquals(1, origin.requests().forPath(SlowBody.PATH).size(), "the lease was renewed, so no one took the request again");
            assertTrue(bed.counted("crawler.leases") >= 1, "renewals are counted");
            // a lease is acknowledged after Kafka has taken its page
            Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertEquals(0, bed.redis().sync().zcard(Keyspace.leases("link")), "acknowledged"));
        }
    }

    @Test
    void aWallClockSetBackDoesNotStopALeaseFromBeingRenewed() {
        try (TestOrigin origin = TestOrigin.builder().domains(1).start(); CrawlerTestBed bed = new CrawlerTestBed(stack)) {
            SettableClock wallClock = new SettableClock();
            bed.set("LEASE_SECONDS", 2).set("ROBOTSTXT_OBEY", false).set("DOWNLOAD_TIMEOUT", 20).clock(wallClock);
            bed.startNode();
            bed.seed(CrawlerTestBed.feedItem(origin.url(0, SlowBody.path(200, 200, 10, 5000)), "clock"));
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> origin.requests().forPath(SlowBody.PATH).size() == 1);

            wallClock.setBack(Duration.ofHours(1));

            assertEquals(1, bed.awaitResults(1).size());
            assertEquals(1, origin.requests().forPath(SlowBody.PATH).size(), "the lease was renewed, so no one took the request again");
        }
    }

    @Test
    void aNodeKilledAfterPublishingButBeforeAcknowledgingHasItsPageCrawledAgain() throws IOException, InterruptedException {
        GatedPage gate = new GatedPage();
        try (EmbeddedRedis redis = EmbeddedRedis.start(0, DataDirectory.temporary("lease-ack"));
             TestOrigin origin = TestOrigin.builder().domains(1).route(GatedPage.PATH, gate).start();
             CrawlerTestBed bed = new CrawlerTestBed(stack, redis.port(), stack.kafkaBootstrap());
             RedisConnection admin = RedisConnection.open(RedisEndpoint.of("127.0.0.1", redis.port()))) {
            bed.set("LEASE_SECONDS", 2).set("ROBOTSTXT_OBEY", false).set("DOWNLOAD_TIMEOUT", 20);
            // held at the gate until Redis writes are stopped while the child fetches
            String url = origin.url(0, GatedPage.path("unacknowledged"));
            bed.seed(CrawlerTestBed.feedItem(url, "unacknowledged"));

            long ownClients = connectedClients(admin);
            Process child = ChildNode.start(bed, "256m").process();
            try {
                Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> origin.requests().forPath(GatedPage.PATH).size() == 1);
                // From here Redis refuses every write, the acknowledgement among them, while Kafka takes the page.
                client(admin, "PAUSE", Long.toString(Duration.ofMinutes(2).toMillis()), "WRITE");
                gate.open();
                Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> !bed.results().isEmpty());
            } finally {
                child.destroyForcibly();
                assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child did not die");
                // Redis drops the dead child's postponed commands only once it has seen its connections close
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> connectedClients(admin) == ownClients);
                client(admin, "UNPAUSE");
            }
            assertEquals(1, bed.redis().sync().zcard(Keyspace.leases("link")), "the page went out and its lease was never acknowledged");

            bed.startNode();
            List<String> published = CrawlerTestBed.urls(bed.awaitResults(2));
            assertEquals(List.of(url, url), published, "the page comes twice, never zero times");
            assertEquals(2, origin.requests().forPath(GatedPage.PATH).size());
            Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertEquals(0, bed.redis().sync().zcard(Keyspace.leases("link"))));
        }
    }

    @Test
    void aNodeStoppedWhileFetchingHandsItsLeaseBackAtOnce() {
        try (TestOrigin origin = TestOrigin.builder().domains(1).start(); CrawlerTestBed bed = new CrawlerTestBed(stack)) {
            bed.set("LEASE_SECONDS", 120).set("ROBOTSTXT_OBEY", false).set("DOWNLOAD_TIMEOUT", 60);
            CrawlerNode node = bed.startNode();
            // a minute to the first byte: the fetch is still out when the node stops
            bed.seed(CrawlerTestBed.feedItem(origin.url(0, SlowBody.path(200, 200, 10, 60_000)), "stopped"));
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> origin.requests().forPath(SlowBody.PATH).size() == 1);

            node.close(DRAIN); // the request cannot finish while the node drains: no use waiting the 10 s

            List<String> time = bed.redis().sync().time();
            long serverMillis = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
            assertEquals(1, bed.redis().sync().zcount(Keyspace.leases("link"), Range.create(0, serverMillis)),
                    "the stopped node cut its lease short, so that the reaper returns the request at once");
        }
    }

    @Test
    void aNodeStoppedWhilePublishingKeepsItsLeaseUntilThePageIsOut() {
        try (TestOrigin origin = TestOrigin.builder().domains(1).start(); CrawlerTestBed bed = new CrawlerTestBed(stack)) {
            bed.set("LEASE_SECONDS", 120).set("ROBOTSTXT_OBEY", false).set("ITEM_PIPELINES", "{logging: null, kafka: null, held: 100}");
            List<Long> leftWhileFlushing = new CopyOnWriteArrayList<>();
            HeldPipeline.whenFlushing(() -> leftWhileFlushing.add(millisLeft(bed.redis())));
            CrawlerNode node = bed.startNode();
            bed.seed(CrawlerTestBed.feedItem(origin.url(0, SlowBody.path(200, 200, 10, 0)), "publishing"));
            // the page is fetched and parsed; its result goes out only when the pipelines flush, as the node stops
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> HeldPipeline.held() == 1);

            node.close(DRAIN); // the request cannot finish while the node drains: no use waiting the 10 s

            assertTrue(leftWhileFlushing.getFirst() > Duration.ofSeconds(60).toMillis(),
                    "while its page went out the lease still ran, so no reaper could give the request to another node: "
                            + leftWhileFlushing);
            assertEquals(0, bed.redis().sync().zcard(Keyspace.leases("link")), "acknowledged once its page was out");
            assertEquals(0, bed.redis().sync().hlen(Keyspace.leased("link")));
        }
    }

    /** Milliseconds left, on the Redis clock, on the one lease of the spider {@code link}. */
    private static long millisLeft(RedisConnection redis) {
        List<String> time = redis.sync().time();
        long serverMillis = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
        return (long) redis.sync().zrangeWithScores(Keyspace.leases("link"), 0, -1).getFirst().getScore() - serverMillis;
    }

    /** The system's wall clock, which a test can set back, as an operator or a time daemon would. */
    private static final class SettableClock extends Clock {

        private volatile Duration behind = Duration.ZERO;

        void setBack(Duration by) {
            behind = behind.plus(by);
        }

        @Override
        public Instant instant() {
            return Instant.now().minus(behind);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("a test clock in UTC only");
        }
    }

    /** Redis's {@code connected_clients}. */
    private static long connectedClients(RedisConnection redis) {
        return redis.sync().info("clients").lines().filter(line -> line.startsWith("connected_clients:"))
                .mapToLong(line -> Long.parseLong(line.substring("connected_clients:".length()).strip())).findFirst().orElseThrow();
    }

    /** Sends {@code CLIENT <arguments>} (Lettuce has no PAUSE WRITE). */
    private static void client(RedisConnection redis, String... arguments) {
        CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8);
        for (String argument : arguments) {
            args.add(argument);
        }
        redis.sync().dispatch(CommandType.CLIENT, new StatusOutput<>(StringCodec.UTF8), args);
    }
}
