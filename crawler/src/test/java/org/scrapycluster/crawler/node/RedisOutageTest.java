package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.StatusRoute;
import org.scrapycluster.embedded.origin.TestOrigin;

import ch.qos.logback.classic.Level;

/**
 * Redis goes away under a running crawler node, for longer than a few hand-out rounds, and comes back
 * empty (a restart without persistence): the node stays up, says Redis is down while it is, and crawls
 * what is queued once Redis is back, without being restarted. And Redis hangs with the connection open (a
 * frozen server, as a network that drops packets leaves it): the node says Redis is down while no command is
 * answered, and up once one is. And Redis is away when the node starts: the start returns at once, the node says Redis
 * is down (and that it is alive) meanwhile, and crawls once Redis comes up; a node stopped while it waits stops waiting.
 */
@ExtendWith(SharedStack.class)
class RedisOutageTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private final EmbeddedStack stack;

    RedisOutageTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @Test
    void aNodeRidesOutRedisGoingAwayAndCrawlsWhatIsQueuedOnceItIsBack() throws InterruptedException {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("crawler-outage-redis"));
             TestOrigin origin = TestOrigin.builder().domains(1).start();
             CrawlerTestBed bed = new CrawlerTestBed(stack, server.port(), stack.kafkaBootstrap())) {
            bed.set("ROBOTSTXT_OBEY", false);
            bed.startNode();
            String before = origin.url(0, StatusRoute.path(200) + "&page=before");
            bed.seed(CrawlerTestBed.feedItem(before, "before"));
            assertEquals(List.of(before), CrawlerTestBed.urls(bed.awaitResults(1)));

            server.stop();
            Awaitility.await().atMost(WAIT).until(() -> bed.health().checks().get("redis").status() == Health.Status.DOWN);
            Thread.sleep(3_000);
            server.restart();
            Awaitility.await().atMost(WAIT).until(() -> bed.health().checks().get("redis").status() == Health.Status.UP);

            String after = origin.url(0, StatusRoute.path(200) + "&page=after");
            Awaitility.await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> bed.seed(CrawlerTestBed.feedItem(after, "after")));
            List<String> crawled = CrawlerTestBed.urls(bed.awaitResults(2));
            assertEquals(List.of(before, after), crawled, "the page queued after the outage is crawled, and nothing twice");
            assertTrue(bed.health().isUp(), bed.health().toJson());
        }
    }

    @Test
    void aNodeSaysRedisIsDownWhileItHangsAndUpOnceItAnswersAgain() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("crawler-hung-redis"));
             CrawlerTestBed bed = new CrawlerTestBed(stack, server.port(), stack.kafkaBootstrap())) {
            bed.set("REDIS_SOCKET_TIMEOUT", 1);
            bed.startNode();
            Awaitility.await().atMost(WAIT).until(() -> redis(bed) == Health.Status.UP);

            server.freeze();
            try {
                Awaitility.await().atMost(WAIT).until(() -> redis(bed) == Health.Status.DOWN);
            } finally {
                server.thaw();
            }
            Awaitility.await().atMost(WAIT).until(() -> redis(bed) == Health.Status.UP);
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aNodeStartedWhileRedisIsAwayStartsAndCrawlsOnceItComesUp() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("crawler-late-redis"));
             TestOrigin origin = TestOrigin.builder().domains(1).start();
             CrawlerTestBed bed = new CrawlerTestBed(stack, server.port(), stack.kafkaBootstrap())) {
            bed.set("ROBOTSTXT_OBEY", false);
            server.stop();
            bed.startNodeWithoutWaiting();
            assertEquals(Health.down("connecting to " + bed.redis().endpoint()), bed.health().checks().get("redis"));
            assertTrue(bed.liveness().isUp(), bed.liveness().toJson());

            server.restart();
            Awaitility.await().atMost(WAIT).until(() -> redis(bed) == Health.Status.UP);
            String page = origin.url(0, StatusRoute.path(200) + "&page=late");
            Awaitility.await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> bed.seed(CrawlerTestBed.feedItem(page, "late")));
            assertEquals(List.of(page), CrawlerTestBed.urls(bed.awaitResults(1)));
            assertTrue(bed.liveness().isUp(), bed.liveness().toJson());
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aNodeStoppedWhileItWaitsForRedisStopsWaiting() throws IOException {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             CrawlerTestBed bed = new CrawlerTestBed(stack);
             CapturedLog logged = CapturedLog.start(CrawlerNode.class, Level.INFO)) {
            bed.set("REDIS_PORT", silent.getLocalPort()); // takes the connection and never answers: each attempt waits its timeout
            CrawlerNode node = bed.startNodeWithoutWaiting();
            assertEquals(1, startingThreads());
            node.close();
            assertEquals(0, startingThreads(), "the thread connecting to Redis has ended with the close");
            assertFalse(bed.health().checks().get("redis").isUp());
            assertEquals(List.of("INFO Closing Spider"), logged.lines(), "the attempt cut short is no failure to connect");
        }
    }

    private static long startingThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("crawler-start-") && thread.isAlive()).count();
    }

    private static Health.Status redis(CrawlerTestBed bed) {
        return bed.health().checks().get("redis").status();
    }
}
