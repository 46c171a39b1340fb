package org.scrapycluster.kafkamonitor.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.jobs.JobKeys;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.kafkamonitor.testing.ClusterTestHandler;
import org.scrapycluster.kafkamonitor.testing.KafkaTopics;
import org.scrapycluster.kafkamonitor.testing.MonitorSettings;
import org.scrapycluster.kafkamonitor.testing.RunningMonitor;

import ch.qos.logback.classic.Level;

/** Requests produced to the embedded Kafka end up in the shared Redis; rejections and error answers on their topics. */
@ExtendWith(SharedStack.class)
class KafkaMonitorEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofMinutes(1);

    private final EmbeddedStack stack;
    private KafkaTopics kafka;
    private RedisConnection redis;

    KafkaMonitorEndToEndTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @BeforeEach
    void connect() {
        kafka = new KafkaTopics(stack.kafkaBootstrap());
        redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()));
    }

    @AfterEach
    void disconnect() {
        kafka.close();
        redis.close();
    }

    @Test
    void requestsAreWrittenRejectionsPublishedAndSendersAnswered() throws Exception {
        MonitorSettings settings = MonitorSettings.forStack(stack).set("KAFKA_APPID_TOPICS", "true");
        String spider = MonitorSettings.unique("sp");
        String app = MonitorSettings.unique("app");
        try (RunningMonitor monitor = RunningMonitor.start(settings.build())) {
            kafka.sendText(settings.incomingTopic(),
                    "{\"url\":\"https://www.example.com/start\",\"appid\":\"" + app + "\",\"crawlid\":\"c1\",\"spiderid\":\"" + spider + "\",\"priority\":20}",
                    "{\"uuid\":\"u-info\",\"appid\":\"" + app + "\",\"action\":\"info\",\"spiderid\":\"" + spider + "\",\"crawlid\":\"c1\"}",
                    "{\"uuid\":\"u-bad\",\"appid\":\"" + app + "\",\"stats\":\"everything\"}",
                    "{\"sdasdf   sd}");
            kafka.send(settings.incomingTopic(), List.of(new byte[] {'{', '"', (byte) 0xff, '"', ':', '1', '}'}));

            Awaitility.await().atMost(WAIT).until(() -> kafka.committed(settings.prefix() + "-group", settings.incomingTopic()) == 5);

            String member = redis.sync().zrange(spider + ":example.com:queue", 0, -1).getFirst();
            assertEquals("https://www.example.com/start", JSON.readTree(member).get("url").asText());
            assertEquals(-20.0, redis.sync().zscore(spider + ":example.com:queue", member));
            assertEquals("u-info", redis.sync().get("info:" + spider + ":" + app + ":c1"));
            assertTrue(redis.sync().lrange("jobs:signal", 0, -1).contains("info:" + spider + ":" + app + ":c1"));

            List<String> rejected = kafka.readUntil(settings.prefix() + ".incoming_rejected", WAIT, values -> values.size() >= 3);
            assertEquals(3, rejected.size());
            JsonNode invalid = JSON.readTree(rejected.get(0));
            assertEquals("Did not find schema to validate request", invalid.get("reason").asText());
            assertEquals("stats", invalid.get("schema").asText());
            assertEquals("[\"stats: must be one of kafka-monitor, redis-monitor, crawler, spider, machine, queue, rest, all; was \\\"everything\\\"\"]",
                    invalid.get("violations").toString());
            assertEquals(settings.incomingTopic(), invalid.get("topic").asText());
            assertEquals("Unparseable JSON Received", JSON.readTree(rejected.get(1)).get("reason").asText());
            assertEquals("{\"sdasdf   sd}", JSON.readTree(rejected.get(1)).get("record").asText());
            assertEquals("{\"\\xff\":1}", JSON.readTree(rejected.get(2)).get("record").asText());

            for (String outbound : List.of(settings.prefix() + ".outbound_firehose", settings.prefix() + ".outbound_" + app)) {
                List<String> answers = kafka.readUntil(outbound, WAIT, values -> !values.isEmpty());
                JsonNode answer = JSON.readTree(answers.getFirst());
                assertEquals(app, answer.get("appid").asText());
                assertEquals("u-bad", answer.get("uuid").asText());
                assertEquals("Did not find schema to validate request", answer.path("error").path("message").asText());
                assertEquals(1, answer.path("error").path("details").size());
            }

            // a batch's outcomes are counted after its Redis writes, which the checks above may have seen first
            Awaitility.await().atMost(WAIT).untilAsserted(() -> {
                assertEquals(5, monitor.counter("kafka.monitor.records.consumed"));
                assertEquals(1, monitor.counter("kafka.monitor.requests.accepted", "plugin", "ScraperHandler"));
                assertEquals(1, monitor.counter("kafka.monitor.requests.accepted", "plugin", "ActionHandler"));
                assertEquals(1, monitor.counter("kafka.monitor.requests.rejected", "reason", "invalid"));
                assertEquals(2, monitor.counter("kafka.monitor.requests.rejected", "reason", "unreadable"));
            });
            assertEquals(Health.Status.UP, monitor.health().status(), monitor.health().toString());
            List<String> heartbeats = redis.sync().keys("stats:kafka-monitor:self:*");
            assertTrue(heartbeats.stream().anyMatch(key -> key.matches("stats:kafka-monitor:self:.+:[0-9a-f]{12}")), heartbeats.toString());
        }
    }

    @Test
    void aRequestWithTensOfThousandsOfViolationsIsStillAnswered() throws Exception {
        MonitorSettings settings = MonitorSettings.forStack(stack);
        StringBuilder request = new StringBuilder("{\"uuid\":\"u-many\",\"appid\":\"testapp\",\"stats\":\"all\"");
        for (int i = 0; i < 20_000; i++) {
            request.append(",\"field").append(i).append("\":0");
        }
        try (RunningMonitor monitor = RunningMonitor.start(settings.build())) {
            kafka.sendText(settings.incomingTopic(), request.append('}').toString());

            JsonNode answer = JSON.readTree(kafka.readUntil(settings.prefix() + ".outbound_firehose", WAIT, values -> !values.isEmpty()).getFirst());
            assertEquals("u-many", answer.get("uuid").asText());
            assertEquals("Did not find schema to validate request", answer.path("error").path("message").asText());
            JsonNode rejected = JSON.readTree(kafka.readUntil(settings.prefix() + ".incoming_rejected", WAIT, values -> !values.isEmpty()).getFirst());
            assertEquals(answer.path("error").path("details"), rejected.get("violations"));
        }
    }

    @Test
    void aRejectionKafkaDoesNotTakeWhileItAnswersIsDroppedAndTheRecordsAfterItAreTaken() throws Exception {
        // a topic the broker cannot create, as on a cluster without automatic topic creation: here its name collides
        // with an existing topic's ('.' and '_' are one to Kafka); the producer gives a send up after max.block.ms
        MonitorSettings settings = MonitorSettings.forStack(stack).set("KAFKA_CLIENT_PROPERTIES", "{max.block.ms: 2000}");
        kafka.createTopic(settings.prefix() + "_incoming_rejected");
        String spider = MonitorSettings.unique("sp");
        try (RunningMonitor monitor = RunningMonitor.start(settings.build())) {
            kafka.sendText(settings.incomingTopic(), "{\"uuid\":\"u-bad\",\"appid\":\"testapp\",\"stats\":\"everything\"}");
            Awaitility.await().atMost(WAIT).until(() -> kafka.committed(settings.prefix() + "-group", settings.incomingTopic()) == 1);
            kafka.sendText(settings.incomingTopic(),
                    "{\"url\":\"http://www.later-example.com/\",\"appid\":\"testapp\",\"crawlid\":\"c1\",\"spiderid\":\"" + spider + "\"}");

            Awaitility.await().atMost(WAIT).until(() -> redis.sync().zcard(spider + ":later-example.com:queue") == 1);
            JsonNode answer = JSON.readTree(kafka.readUntil(settings.prefix() + ".outbound_firehose", WAIT, values -> !values.isEmpty()).getFirst());
            assertEquals("u-bad", answer.get("uuid").asText(), "the error answer, to a topic Kafka has, is sent");
        }
    }

    @Test
    void aRequestOfAScopeWithAThousandRequestsWaitingIsAnsweredWithTheReasonAndNoneWaitingIsDropped() throws Exception {
        MonitorSettings settings = MonitorSettings.forStack(stack);
        String app = MonitorSettings.unique("app");
        String spider = MonitorSettings.unique("sp");
        String job = Keyspace.STATS_REQUEST.fill("all", app);
        String waitingList = Keyspace.JOB_WAITING.fill(job);
        String[] waiting = IntStream.range(0, JobKeys.WAITING_KEPT).mapToObj(i -> "w-" + i).toArray(String[]::new);
        redis.sync().set(job, waiting[waiting.length - 1]);
        redis.sync().rpush(waitingList, waiting);
        try (RunningMonitor monitor = RunningMonitor.start(settings.build());
             CapturedLog log = CapturedLog.start(BatchFiling.class, Level.WARN)) {
            kafka.sendText(settings.incomingTopic(),
                    "{\"uuid\":\"u-over\",\"appid\":\"" + app + "\",\"stats\":\"all\"}",
                    "{\"url\":\"http://www.after-example.com/\",\"appid\":\"" + app + "\",\"crawlid\":\"c1\",\"spiderid\":\"" + spider + "\"}");

            JsonNode answer = JSON.readTree(kafka.readUntil(settings.prefix() + ".outbound_firehose", WAIT, values -> !values.isEmpty()).getFirst());
            assertEquals("u-over", answer.get("uuid").asText());
            assertEquals("The request cannot be written to Redis", answer.path("error").path("message").asText());
            assertEquals("redis: ERR 1000 requests with the job key " + job + " wait for their answers already; ask again once they are answered",
                    answer.path("error").path("details").get(0).asText());
            Awaitility.await().atMost(WAIT).until(() -> redis.sync().zcard(spider + ":after-example.com:queue") == 1);
            assertEquals(List.of(waiting), redis.sync().lrange(waitingList, 0, -1), "every request waiting still waits");
            assertEquals(waiting[waiting.length - 1], redis.sync().get(job));
            assertEquals(List.of(), log.lines(), "the request is refused alone, its batch not written again one record at a time");
            assertFalse(redis.sync().lrange(Keyspace.JOBS_SIGNAL, 0, -1).contains(job), "a job not written is not signalled");
        }
    }

    @Test
    void withQueueFifoSeedsOfOnePriorityAreQueuedInTheOrderTheyCame() throws Exception {
        MonitorSettings settings = MonitorSettings.forStack(stack).set("QUEUE_FIFO", "true");
        String spider = MonitorSettings.unique("sp");
        List<String> paths = List.of("z", "m", "a", "q", "b");
        try (RunningMonitor monitor = RunningMonitor.start(settings.build())) {
            kafka.sendText(settings.incomingTopic(), paths.stream().map(path -> "{\"url\":\"http://www.fifo-example.com/" + path
                    + "\",\"appid\":\"testapp\",\"crawlid\":\"c1\",\"spiderid\":\"" + spider + "\"}").toArray(String[]::new));

            Awaitility.await().atMost(WAIT).until(() -> redis.sync().zcard(spider + ":fifo-example.com:queue") == paths.size());
            List<String> queued = new ArrayList<>();
            for (String member : redis.sync().zrange(spider + ":fifo-example.com:queue", 0, -1)) {
                queued.add(JSON.readTree(member).get("url").asText().substring("http://www.fifo-example.com/".length()));
            }
            assertEquals(paths, queued, "first in, first out; without QUEUE_FIFO the members' bytes would order them");
        }
    }

    @Test
    void aUserPluginWithItsOwnSchemaHandlesItsRequests() {
        MonitorSettings settings = MonitorSettings.forStack(stack).set("PLUGINS", "{" + ClusterTestHandler.class.getName() + ": 500}");
        String uuid = MonitorSettings.unique("mytestid");
        try (RunningMonitor monitor = RunningMonitor.start(settings.build())) {
            kafka.sendText(settings.incomingTopic(), "{\"uuid\":\"" + uuid + "\",\"test\":\"cluster\"}");

            Awaitility.await().atMost(WAIT).until(() -> uuid.equals(redis.sync().get("cluster:test:" + uuid)));
            Awaitility.await().atMost(WAIT).until(() -> monitor.counter("kafka.monitor.requests.accepted", "plugin", "ClusterTestHandler") == 1);
        }
    }

    @Test
    void instancesInOneGroupShareThePartitions() {
        MonitorSettings settings = MonitorSettings.forStack(stack);
        String spider = MonitorSettings.unique("sp");
        String group = settings.prefix() + "-group";
        try (RunningMonitor first = RunningMonitor.start(settings.build());
             RunningMonitor second = RunningMonitor.start(settings.build())) {
            kafka.sendText(settings.incomingTopic(), "{\"url\":\"http://warm-example.com/\",\"appid\":\"testapp\",\"crawlid\":\"c0\",\"spiderid\":\"" + spider + "\"}");
            // both members in the group is not enough: each must hold its partition before the records are sent
            Awaitility.await().atMost(WAIT).until(() -> kafka.membersWithPartitions(group) == 2
                    && kafka.committed(group, settings.incomingTopic()) == 1);

            for (int i = 0; i < 200; i++) {
                String request = "{\"url\":\"http://www.shared-example.com/" + i + "\",\"appid\":\"testapp\",\"crawlid\":\"c1\",\"spiderid\":\"" + spider + "\"}";
                kafka.sendToPartition(settings.incomingTopic(), i % 2, request.getBytes(StandardCharsets.UTF_8));
            }

            Awaitility.await().atMost(WAIT).until(() -> redis.sync().zcard(spider + ":shared-example.com:queue") == 200);
            Awaitility.await().atMost(WAIT).until(() -> kafka.committed(group, settings.incomingTopic()) == 201);
            List<Double> consumed = new ArrayList<>();
            for (RunningMonitor monitor : List.of(first, second)) {
                consumed.add(monitor.counter("kafka.monitor.records.consumed"));
            }
            assertEquals(201.0, consumed.get(0) + consumed.get(1), consumed.toString());
            assertTrue(consumed.get(0) >= 100 && consumed.get(1) >= 100, "each took its partition: " + consumed);
        }
    }
}
