package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.awaitility.Awaitility;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.queue.CompletedCrawl;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedKafka;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.redismonitor.job.JobFailures;

/**
 * A Redis monitor whose Kafka is not there yet: jobs stay in Redis (not counted as failures) until
 * a broker comes up at the configured address, then they are answered. So do completion
 * announcements, even when the monitor that retired the crawl is stopped before Kafka is back. A monitor
 * with nothing to answer sees Kafka go and come back.
 */
@ExtendWith(SharedStack.class)
class KafkaOutageTest {

    @Test
    void keepsJobsUntilKafkaTakesTheirAnswers(EmbeddedStack stack) {
        int port = FreePorts.pick();
        try (MonitorFixture fixture = MonitorFixture.on(stack.redisPort(), "127.0.0.1:" + port, stack.zookeeperConnect(),
                "KAFKA_SEND_TIMEOUT", "1")) {
            MonitorFixture.Running monitor = fixture.startMonitor();
            String key = Keyspace.STATS_REQUEST.fill("rest", MonitorFixture.unique("app"));
            fixture.post(key, "uuid-waiting");
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (monitor.health().check().checks().get("kafka").status() != Health.Status.DOWN && System.nanoTime() < deadline) {
                MonitorFixture.sleep(Duration.ofMillis(100));
            }
            assertEquals(Health.Status.DOWN, monitor.health().check().checks().get("kafka").status());
            assertEquals("uuid-waiting", fixture.redis().sync().get(key), "the job waits for Kafka");

            try (EmbeddedKafka kafka = EmbeddedKafka.start(port, 1, DataDirectory.temporary("late-kafka"))) {
                fixture.answers().awaitUuid("uuid-waiting");
                fixture.awaitGone(key);
                assertEquals(Health.Status.UP, monitor.health().check().checks().get("kafka").status());
                assertEquals(0, fixture.redis().sync().exists(JobFailures.key(key)),
                        "an outage is not the job's failure");
                monitor.monitor().close();
            }
        }
    }

    @Test
    void aMonitorWithNoAnswerToSendReportsKafkaDownWhileItIsGone(EmbeddedStack stack, @TempDir Path kafkaData) {
        int port = FreePorts.pick();
        EmbeddedKafka kafka = EmbeddedKafka.start(port, 1, DataDirectory.kept(kafkaData));
        try (MonitorFixture fixture = MonitorFixture.on(stack.redisPort(), kafka.bootstrapServers(), stack.zookeeperConnect(),
                // the kafka check is down after request.timeout.ms of silence (docs/operations.md): 3 s rather than 30 s
                "KAFKA_CLIENT_PROPERTIES", "{request.timeout.ms: 3000}")) {
            MonitorFixture.Running monitor = fixture.startMonitor();
            assertEquals(Health.Status.UP, kafkaStatus(monitor));

            kafka.close();
            Awaitility.await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> kafkaStatus(monitor) == Health.Status.DOWN);

            kafka = EmbeddedKafka.start(port, 1, DataDirectory.kept(kafkaData));
            Awaitility.await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> kafkaStatus(monitor) == Health.Status.UP);
        } finally {
            kafka.close();
        }
    }

    @Test
    void anAnswerKeptThroughAnOutageIsSentOnceWhenKafkaIsBack(EmbeddedStack stack, @TempDir Path kafkaData) {
        int port = FreePorts.pick();
        EmbeddedKafka kafka = EmbeddedKafka.start(port, 1, DataDirectory.kept(kafkaData));
        try (MonitorFixture fixture = MonitorFixture.on(stack.redisPort(), kafka.bootstrapServers(), stack.zookeeperConnect(),
                "KAFKA_SEND_TIMEOUT", "1")) {
            MonitorFixture.Running monitor = fixture.startMonitor();
            fixture.post(Keyspace.STATS_REQUEST.fill("rest", MonitorFixture.unique("app")), "uuid-before");
            fixture.answers().awaitUuid("uuid-before"); // the producer knows where the firehose is

            kafka.close();
            String key = Keyspace.STATS_REQUEST.fill("rest", MonitorFixture.unique("app"));
            fixture.post(key, "uuid-kept");
            Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> kafkaStatus(monitor) == Health.Status.DOWN);
            MonitorFixture.sleep(Duration.ofSeconds(4)); // the job is tried again while Kafka is away
            assertEquals("uuid-kept", fixture.redis().sync().get(key), "the job waits for Kafka");

            kafka = EmbeddedKafka.start(port, 1, DataDirectory.kept(kafkaData));
            fixture.answers().awaitUuid("uuid-kept");
            fixture.awaitGone(key);
            List<JsonNode> answers = fixture.answers().readFor(Duration.ofSeconds(3));
            assertEquals(1, answers.stream().filter(answer -> "uuid-kept".equals(answer.path("uuid").asText())).count(),
                    "the attempts Kafka did not take in time are not delivered later beside the one it took: " + answers);
        } finally {
            kafka.close();
        }
    }

    private static Health.Status kafkaStatus(MonitorFixture.Running monitor) {
        return monitor.health().check().checks().get("kafka").status();
    }

    @Test
    void aStopDoneByAMonitorWithoutKafkaIsAnsweredWithWhatItPurgedByAnother(EmbeddedStack stack) {
        try (MonitorFixture cutOff = MonitorFixture.on(stack, "KAFKA_HOSTS", "127.0.0.1:9", "KAFKA_SEND_TIMEOUT", "1");
                MonitorFixture fixture = MonitorFixture.on(stack)) {
            QueueState queues = new QueueState(fixture.redis(), MonitorFixture.unique("spider"));
            String appid = MonitorFixture.unique("app");
            for (int i = 0; i < 3; i++) {
                queues.seed("a.com", queues.feedItem("https://a.com/" + i, appid, "c1", 1, 0));
            }
            String queue = new QueueKey(queues.spider(), "a.com").key();
            cutOff.startMonitor();
            fixture.post(Keyspace.STOP_CRAWL.fill(queues.spider(), appid, "c1"), "uuid-stop");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> fixture.redis().sync().zcard(queue) == 0);

            fixture.startMonitor();
            JsonNode answer = fixture.answers().awaitUuid("uuid-stop");
            assertEquals(3, answer.path("total_purged").asLong(), "the purge's own count, not a second purge's 0: " + answer);
        }
    }

    @Test
    void aCompletionNoKafkaTookIsAnnouncedByTheNextMonitor(EmbeddedStack stack) {
        int port = FreePorts.pick();
        try (MonitorFixture fixture = MonitorFixture.on(stack.redisPort(), "127.0.0.1:" + port, stack.zookeeperConnect(),
                "KAFKA_SEND_TIMEOUT", "1", "CRAWL_COMPLETE_QUIET_SECONDS", "1")) {
            MonitorFixture.Running first = fixture.startMonitor();
            QueueState queues = new QueueState(fixture.redis(), MonitorFixture.unique("spider"));
            String appid = MonitorFixture.unique("app");
            queues.seed("a.com", queues.feedItem("https://a.com/", appid, "c1", 1, 0));
            queues.ack(queues.handOut("a.com"), true);
            CrawlRef crawl = new CrawlRef(queues.spider(), appid, "c1");
            Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> fixture.redis().sync().lrange(Keyspace.CRAWLS_COMPLETED, 0, -1)
                    .stream().anyMatch(entry -> CompletedCrawl.parse(entry).crawl().equals(crawl)));
            first.monitor().close();
            List<String> filed = fixture.redis().sync().lrange(Keyspace.CRAWLS_COMPLETED, 0, -1);
            assertEquals(1, filed.size(), "the retired crawl's announcement outlives the monitor: " + filed);
            CompletedCrawl retired = CompletedCrawl.parse(filed.getFirst());
            assertEquals(1, retired.pages());

            try (EmbeddedKafka kafka = EmbeddedKafka.start(port, 1, DataDirectory.temporary("late-kafka"))) {
                fixture.startMonitor();
                JsonNode complete = fixture.answers().await(answer -> "complete".equals(answer.path("action").asText())
                        && queues.spider().equals(answer.path("spiderid").asText()));
                assertEquals(appid, complete.path("appid").asText());
                assertEquals("c1", complete.path("crawlid").asText());
                assertEquals(1, complete.path("total_pages").asLong());
                assertEquals(retired.started().orElseThrow(), complete.path("start_time").asLong());
                Awaitility.await().atMost(Duration.ofMinutes(1))
                        .until(() -> fixture.redis().sync().llen(Keyspace.CRAWLS_COMPLETED) == 0);
            }
        }
    }
}
