package org.scrapycluster.rest.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedKafka;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.rest.testing.GatewayClient;
import org.scrapycluster.rest.feed.FeedEndpoint;
import org.scrapycluster.rest.testing.GatewaySettings;
import org.scrapycluster.rest.testing.OutboundResponder;
import org.scrapycluster.rest.testing.RunningGateway;

/**
 * Kafka or Redis away, at start or while running, or Redis hung: the gateway starts all the same, answers at once
 * with a clear error ({@code Unable to connect to Kafka}, {@code Unable to connect to Redis}),
 * reports YELLOW or RED and 503 on {@code /health}, and works again when the server is back (a
 * Kafka broker restarted under a running gateway included: requests are fed and answers read again).
 * A gateway whose outbound topic does not exist yet feeds crawls, and refuses only the requests that wait
 * for an answer.
 */
@ExtendWith(SharedStack.class)
class OutageTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CRAWL = "{\"url\": \"https://www.example.com/\", \"appid\": \"testapp\", \"crawlid\": \"c1\"}";
    private static final String INFO = "{\"action\": \"info\", \"appid\": \"testapp\", \"uuid\": \"o-1\", \"spiderid\": \"link\"}";

    @Test
    void kafkaUnreachable(EmbeddedStack stack) throws Exception {
        GatewaySettings settings = GatewaySettings.forStack(stack).set("KAFKA_HOSTS", "127.0.0.1:" + FreePorts.pick());
        try (RunningGateway gateway = RunningGateway.start(settings.build())) {
            Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> gateway.index().get("redis_connected").asBoolean());
            JsonNode index = gateway.index();
            assertEquals(false, index.get("kafka_connected").asBoolean());
            assertEquals("YELLOW", index.get("node_health").asText());
            assertKafkaDown(gateway, CRAWL);
            assertKafkaDown(gateway, INFO);
            GatewayClient.Reply health = gateway.client().get("/health");
            assertEquals(503, health.status());
            assertEquals("DOWN", health.json().get("checks").get("rest.kafka").get("status").asText());
            assertEquals("UP", health.json().get("checks").get("rest.redis").get("status").asText());
            assertEquals(503, gateway.client().get("/health/ready").status());
            GatewayClient.Reply live = gateway.client().get("/health/live");
            assertEquals(200, live.status(), "Kafka away never fails liveness");
            assertEquals("UP", live.json().get("checks").get("rest.kafka-loop").get("status").asText());
        }
    }

    @Test
    void kafkaHostUnknownAndRedisUnreachable(EmbeddedStack stack) throws Exception {
        GatewaySettings settings = GatewaySettings.forStack(stack, FreePorts.pick()).set("KAFKA_HOSTS", "kafka.invalid:9092");
        try (RunningGateway gateway = RunningGateway.start(settings.build())) {
            JsonNode index = gateway.index();
            assertEquals("RED", index.get("node_health").asText());
            assertKafkaDown(gateway, CRAWL);
            assertRedisDown(gateway);
        }
    }

    @Test
    void redisAwayWhileRunning(EmbeddedStack stack) throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0, DataDirectory.temporary("rest-outage"))) {
            GatewaySettings settings = GatewaySettings.forStack(stack, redis.port()).set("WAIT_FOR_RESPONSE_TIME", "0");
            try (OutboundResponder responder = new OutboundResponder(settings);
                    RunningGateway gateway = RunningGateway.start(settings.build()).awaitGreen()) {
                redis.stop();
                Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> "YELLOW".equals(gateway.index().get("node_health").asText()));
                assertRedisDown(gateway);
                assertEquals(200, gateway.client().postJson("/feed", CRAWL).status(), "feeding needs no Redis");

                double unparked = gateway.counter("rest.answers", "route", "unparked");
                responder.publish("{\"uuid\":\"o-lost\",\"appid\":\"testapp\"}");
                Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> gateway.counter("rest.answers", "route", "unparked") == unparked + 1);

                redis.restart();
                gateway.awaitGreen();
                GatewayClient.Reply fed = gateway.client().postJson("/feed", INFO);
                assertEquals("o-1", fed.json().get("data").get("poll_id").asText());
                responder.publish("{\"uuid\":\"o-1\",\"appid\":\"testapp\",\"total_pending\":0}");
                GatewayClient.Reply polled = Awaitility.await().atMost(Duration.ofMinutes(1))
                        .until(() -> gateway.client().postJson("/poll", "{\"poll_id\": \"o-1\"}"), reply -> reply.status() == 200);
                assertEquals(0, polled.json().get("data").get("total_pending").asInt());
            }
        }
    }

    /**
     * A {@code /poll} that Redis runs only after the gateway gave up on it (Redis stalled, then resumed) takes nothing: the
     * answer is there for the poll after.
     */
    @Test
    void aPollThatRedisAnswersTooLateLosesNoAnswer(EmbeddedStack stack) throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0, DataDirectory.temporary("rest-late"));
                RedisConnection direct = RedisConnection.open(RedisEndpoint.of("127.0.0.1", redis.port()))) {
            GatewaySettings settings = GatewaySettings.forStack(stack, redis.port()).set("REDIS_SOCKET_TIMEOUT", "1");
            try (RunningGateway gateway = RunningGateway.start(settings.build()).awaitGreen()) {
                direct.sync().set("rest:poll:o-late", "{\"uuid\":\"o-late\",\"total_pending\":3}");
                direct.sync().set("rest:poll:o-first", "{\"uuid\":\"o-first\"}");
                // Redis has the scripts a poll runs: one it does not know would fail when it runs late, and delete nothing
                assertEquals(200, gateway.client().postJson("/poll", "{\"poll_id\": \"o-first\"}").status());
                redis.freeze();
                try {
                    assertEquals(500, gateway.client().postJson("/poll", "{\"poll_id\": \"o-late\"}").status(), "Redis stalled");
                } finally {
                    redis.thaw();
                }
                gateway.awaitGreen();
                GatewayClient.Reply polled = gateway.client().postJson("/poll", "{\"poll_id\": \"o-late\"}");
                assertEquals(200, polled.status(), polled.json().toString());
                assertEquals(3, polled.json().get("data").get("total_pending").asInt());
                assertEquals(404, gateway.client().postJson("/poll", "{\"poll_id\": \"o-late\"}").status(), "handed out once");
            }
        }
    }

    /** A Redis that hangs keeps its connection open; the index says it is not connected, as {@code /health} says it is down. */
    @Test
    void redisHungWhileRunning(EmbeddedStack stack) throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0, DataDirectory.temporary("rest-hung"))) {
            GatewaySettings settings = GatewaySettings.forStack(stack, redis.port());
            try (RunningGateway gateway = RunningGateway.start(settings.build()).awaitGreen()) {
                redis.freeze();
                try {
                    Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> "YELLOW".equals(gateway.index().get("node_health").asText()));
                    assertEquals(false, gateway.index().get("redis_connected").asBoolean());
                } finally {
                    redis.thaw();
                }
                gateway.awaitGreen();
            }
        }
    }

    @Test
    void kafkaRestartedWhileRunning(EmbeddedStack stack, @TempDir Path kafkaData) throws Exception {
        int port = FreePorts.pick();
        GatewaySettings settings = GatewaySettings.forStack(stack).set("KAFKA_HOSTS", "127.0.0.1:" + port)
                .set("WAIT_FOR_RESPONSE_TIME", "30");
        EmbeddedKafka kafka = EmbeddedKafka.start(port, 1, DataDirectory.kept(kafkaData));
        try (RunningGateway gateway = RunningGateway.start(settings.build()).awaitGreen()) {
            try (OutboundResponder responder = new OutboundResponder(settings)) {
                responder.answerWith("k-1", "{\"uuid\":\"k-1\",\"appid\":\"testapp\",\"total_pending\":1}");
                assertEquals(1, gateway.client().postJson("/feed", INFO.replace("o-1", "k-1")).json().get("data").get("total_pending").asInt());
            }
            kafka.close();
            Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> !gateway.index().get("kafka_connected").asBoolean());
            assertKafkaDown(gateway, CRAWL);

            kafka = EmbeddedKafka.start(port, 1, DataDirectory.kept(kafkaData));
            gateway.awaitGreen();
            try (OutboundResponder responder = new OutboundResponder(settings)) {
                responder.answerWith("k-2", "{\"uuid\":\"k-2\",\"appid\":\"testapp\",\"total_pending\":2}");
                GatewayClient.Reply fed = gateway.client().postJson("/feed", INFO.replace("o-1", "k-2"));
                assertEquals(200, fed.status(), fed.body());
                assertEquals(2, fed.json().get("data").get("total_pending").asInt(), "answers are read again after the restart: " + fed.body());
                assertEquals(200, gateway.client().postJson("/feed", CRAWL).status());
            }
        } finally {
            kafka.close();
        }
    }

    /**
     * On a broker that creates no topic on first use, before {@code <prefix>.outbound_firehose} exists: the
     * reader has no partition, yet crawl requests are fed; a request that waits for its answer is refused
     * with a message saying why. Once the topic is created, answers are read.
     */
    @Test
    void outboundTopicMissing(EmbeddedStack stack) throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(0, 1, DataDirectory.temporary("rest-no-topics"), false);
                Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            GatewaySettings settings = GatewaySettings.forStack(stack).set("KAFKA_HOSTS", kafka.bootstrapServers())
                    .set("WAIT_FOR_RESPONSE_TIME", "30");
            admin.createTopics(List.of(new NewTopic(settings.incomingTopic(), 1, (short) 1))).all().get();
            try (OutboundResponder responder = new OutboundResponder(settings);
                    RunningGateway gateway = RunningGateway.start(settings.build())) {
                Awaitility.await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(50))
                        .until(() -> gateway.client().get("/health").json().path("checks").path("rest.kafka").path("detail")
                                .asText().startsWith("connected, but no partition of " + settings.outboundTopic()));
                GatewayClient.Reply crawl = gateway.client().postJson("/feed", CRAWL);
                assertEquals(200, crawl.status(), crawl.body());
                responder.awaitRequest("crawlid", "c1");

                double refused = gateway.counter("rest.feed", "outcome", "answers_unavailable");
                GatewayClient.Reply info = gateway.client().postJson("/feed", INFO);
                assertEquals(500, info.status());
                assertEquals(FeedEndpoint.ANSWERS_UNREADABLE, info.json().get("error").get("message").asText());
                assertTrue(info.json().get("error").get("cause").asText().contains("no partition of " + settings.outboundTopic()),
                        info.body());
                assertEquals(refused + 1, gateway.counter("rest.feed", "outcome", "answers_unavailable"));
                assertEquals("YELLOW", gateway.index().get("node_health").asText(), "answers are not read: Kafka is not connected");

                admin.createTopics(List.of(new NewTopic(settings.outboundTopic(), 1, (short) 1))).all().get();
                gateway.awaitGreen();
                responder.answerWith("o-1", "{\"uuid\":\"o-1\",\"appid\":\"testapp\",\"total_pending\":3}");
                GatewayClient.Reply answered = gateway.client().postJson("/feed", INFO);
                assertEquals(3, answered.json().get("data").get("total_pending").asInt(), answered.body());
            }
        }
    }

    private static void assertKafkaDown(RunningGateway gateway, String request) throws Exception {
        double before = gateway.counter("rest.feed", "outcome", "kafka_unavailable");
        GatewayClient.Reply reply = gateway.client().postJson("/feed", request);
        assertEquals(500, reply.status());
        assertEquals(JSON.readTree("{\"status\":\"FAILURE\",\"data\":null,\"error\":{\"message\":\"Unable to connect to Kafka\"}}"), reply.json());
        assertEquals(before + 1, gateway.counter("rest.feed", "outcome", "kafka_unavailable"));
    }

    private static void assertRedisDown(RunningGateway gateway) throws Exception {
        GatewayClient.Reply reply = gateway.client().postJson("/poll", "{\"poll_id\": \"anything\"}");
        assertEquals(500, reply.status());
        assertEquals(JSON.readTree("{\"status\":\"FAILURE\",\"data\":null,\"error\":{\"message\":\"Unable to connect to Redis\"}}"), reply.json());
        assertEquals(false, gateway.index().get("redis_connected").asBoolean());
    }
}
