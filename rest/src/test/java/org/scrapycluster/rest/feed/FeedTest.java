package org.scrapycluster.rest.feed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lettuce.core.ScriptOutputType;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.rest.http.Dispatcher;
import org.scrapycluster.rest.http.Envelope;
import org.scrapycluster.rest.testing.GatewayClient;
import org.scrapycluster.rest.testing.AnsweredGateway;
import org.scrapycluster.rest.testing.OutboundResponder;
import org.scrapycluster.rest.testing.RunningGateway;

/**
 * {@code /feed} and {@code /poll} against a real gateway on the embedded stack, answered by a test
 * thread standing in for the Redis monitor (docs/compatibility.md §6.4, §6.5).
 */
@ExtendWith(SharedStack.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FeedTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int POLL_RESULT_TTL = 600;
    private static final int ROUNDS = 10;
    private static final int POLLERS = 8;

    private AnsweredGateway answered;
    private RunningGateway gateway;
    private OutboundResponder responder;
    private RedisConnection redis;

    @BeforeAll
    void start(EmbeddedStack stack) {
        answered = AnsweredGateway.start(stack, settings -> settings.set("WAIT_FOR_RESPONSE_TIME", "1")
                .set("POLL_RESULT_TTL", Integer.toString(POLL_RESULT_TTL)));
        gateway = answered.gateway();
        responder = answered.responder();
        redis = answered.redis();
    }

    @AfterAll
    void stop() {
        answered.close();
    }

    @Test
    void theRequestReachesKafkaAsSentAndItsAnswerComesBackWithinTheWait() throws Exception {
        String body = "{\"appid\": \"testapp\",   \"uuid\": \"f-1\", \"stats\": \"queue\"}";
        String answer = "{\"stats\":\"queue\",\"appid\":\"testapp\",\"uuid\":\"f-1\",\"server_time\":1709289002,\"queues\":{\"total_backlog\":0}}";
        responder.answerWith("f-1", answer);
        double before = gateway.counter("rest.feed", "outcome", "answered");

        GatewayClient.Reply reply = gateway.client().postJson("/feed", body);

        assertEquals(200, reply.status(), reply.body());
        assertEquals(JSON.readTree(answer), reply.json().get("data"));
        assertArrayEquals(body.getBytes(StandardCharsets.UTF_8), responder.awaitRequest("uuid", "f-1"), "sent byte for byte");
        assertEquals(before + 1, gateway.counter("rest.feed", "outcome", "answered"));
        assertNull(redis.sync().get("rest:poll:f-1"), "an answer handed to its caller is not parked by the gateway that waited");
    }

    @Test
    void aLateAnswerIsParkedWithItsTtlAndPolledOnce() throws Exception {
        GatewayClient.Reply fed = gateway.client().postJson("/feed",
                "{\"action\": \"info\", \"appid\": \"testapp\", \"uuid\": \"f-late\", \"spiderid\": \"link\"}");
        assertEquals(JSON.readTree("{\"status\":\"SUCCESS\",\"data\":{\"poll_id\":\"f-late\"},\"error\":null}"), fed.json());
        assertEquals(404, poll("f-late").status(), "not answered yet");

        String answer = "{\"uuid\":\"f-late\",\"appid\":\"testapp\",\"spiderid\":\"link\",\"total_pending\":0,\"server_time\":1709289002}";
        responder.publish(answer);
        Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> redis.sync().get("rest:poll:f-late") != null);
        long ttl = redis.sync().ttl("rest:poll:f-late");
        assertTrue(ttl > 0 && ttl <= POLL_RESULT_TTL, "POLL_RESULT_TTL applies, was " + ttl);

        GatewayClient.Reply polled = poll("f-late");
        assertEquals(200, polled.status());
        assertEquals(JSON.readTree("{\"status\":\"SUCCESS\",\"data\":" + answer + ",\"error\":null}"), polled.json());
        assertEquals(404, poll("f-late").status(), "handed out once");
    }

    @Test
    void callersPollingForOneAnswerAtOnceGetItOnceBetweenThem() {
        // two workers of a client, or a proxy retrying, poll for the same uuid at the same moment
        for (int round = 0; round < ROUNDS; round++) {
            String pollId = "f-race-" + round;
            redis.sync().set("rest:poll:" + pollId, "{\"uuid\":\"" + pollId + "\",\"appid\":\"testapp\"}");
            CountDownLatch go = new CountDownLatch(1);
            List<Integer> statuses;
            try (ExecutorService pollers = Executors.newVirtualThreadPerTaskExecutor()) {
                List<CompletableFuture<GatewayClient.Reply>> polls = IntStream.range(0, POLLERS)
                        .mapToObj(poller -> CompletableFuture.supplyAsync(() -> {
                            awaitUninterruptibly(go);
                            return poll(pollId);
                        }, pollers))
                        .toList();
                go.countDown();
                statuses = polls.stream().map(reply -> reply.join().status()).sorted().toList();
            }
            assertEquals(1, statuses.stream().filter(status -> status == 200).count(), pollId + " answered " + statuses);
            assertEquals(POLLERS - 1, statuses.stream().filter(status -> status == 404).count(), pollId + " answered " + statuses);
        }
    }

    @Test
    void callersWaitingForOneUuidAllGetItsAnswer() throws Exception {
        String request = "{\"appid\": \"testapp\", \"uuid\": \"f-twice\", \"stats\": \"rest\"}";
        CompletableFuture<GatewayClient.Reply> first = CompletableFuture.supplyAsync(() -> gateway.client().postJson("/feed", request));
        CompletableFuture<GatewayClient.Reply> second = CompletableFuture.supplyAsync(() -> gateway.client().postJson("/feed", request));
        responder.awaitRequest("uuid", "f-twice");
        String answer = "{\"uuid\":\"f-twice\",\"appid\":\"testapp\",\"stats\":\"rest\",\"nodes\":{}}";
        responder.publish(answer);
        JsonNode data = JSON.readTree(answer);
        assertEquals(data, first.get().json().get("data"));
        assertEquals(data, second.get().json().get("data"));
    }

    @Test
    void answersWithoutUuidAreIgnoredAndUnreadableOnesCountedAndRecordsWithoutValueToo() {
        double ignored = gateway.counter("rest.answers", "route", "ignored");
        double unreadable = gateway.counter("rest.answers", "route", "unreadable");
        responder.publish("{\"action\":\"expired\",\"appid\":\"testapp\",\"crawlid\":\"c1\",\"spiderid\":\"link\",\"total_expired\":3}");
        responder.publish(new byte[] {'{', (byte) 0xff, '}'});
        responder.publish((byte[]) null);
        responder.publish("[\"not\", \"an\", \"answer\"]");
        Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> gateway.counter("rest.answers", "route", "ignored") == ignored + 2
                && gateway.counter("rest.answers", "route", "unreadable") == unreadable + 2);
        responder.publish("{\"uuid\":\"f-after\",\"appid\":\"testapp\"}");
        Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> redis.sync().get("rest:poll:f-after") != null);
    }

    @Test
    void aParkedKeyOfAnotherTypeIsAnErrorOfItsOwnNotAnOutage() {
        redis.sync().rpush("rest:poll:f-list", "not an answer");

        GatewayClient.Reply polled;
        List<ILoggingEvent> logged;
        try (CapturedLog log = CapturedLog.start(Dispatcher.class, Level.ERROR)) {
            polled = poll("f-list");
            logged = log.events();
        }
        assertEquals(500, polled.status(), polled.body());
        assertTrue(logged.stream().anyMatch(event -> event.getThrowableProxy() != null
                        && String.valueOf(event.getThrowableProxy().getMessage()).contains("WRONGTYPE")),
                "Redis's words are in the log");
        assertEquals(Envelope.UNKNOWN_ERROR, polled.json().get("error").get("message").asText(), "Redis answered, so it is not away");
        assertEquals(1, redis.sync().llen("rest:poll:f-list"), "not the gateway's to delete");

        redis.sync().set("rest:poll:f-string", "{\"uuid\":\"f-string\",\"appid\":\"testapp\"}");
        assertEquals(200, poll("f-string").status(), "the next poll is answered");
    }

    @Test
    void anAnswerWithAByteOrderMarkIsPolledWithoutIt() throws Exception {
        String answer = "{\"uuid\":\"f-marked\",\"appid\":\"testapp\",\"total_pending\":0}";
        byte[] marked = ("\uFEFF" + answer).getBytes(StandardCharsets.UTF_8);
        responder.publish(marked);
        Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> redis.sync().get("rest:poll:f-marked") != null);

        GatewayClient.Reply polled = poll("f-marked");
        assertEquals(200, polled.status(), polled.body());
        assertEquals(JSON.readTree("{\"status\":\"SUCCESS\",\"data\":" + answer + ",\"error\":null}"), polled.json());
    }

    @Test
    void anAnswerWhoseUuidNoPollCanAskForIsNotParked() {
        double ignored = gateway.counter("rest.answers", "route", "ignored");
        String unaskable = "u".repeat(101);
        responder.publish("{\"uuid\":\"" + unaskable + "\",\"appid\":\"testapp\",\"error\":{\"message\":\"refused\"}}");
        responder.publish("{\"uuid\":\"\",\"appid\":\"testapp\"}");
        responder.publish("{\"uuid\":\"f-askable\",\"appid\":\"testapp\"}");

        Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> redis.sync().get("rest:poll:f-askable") != null);
        assertEquals(ignored + 2, gateway.counter("rest.answers", "route", "ignored"));
        assertEquals(0L, redis.sync().exists("rest:poll:" + unaskable, "rest:poll:"));
    }

    @Test
    void aUuidThatIsNotUnicodeTextNeverStandsForAnother() {
        // "\\ud800" is half of a surrogate pair; in a Redis key it would be written "?", the key of uuid "?"
        String answerToQuestionMark = "{\"uuid\":\"?\",\"appid\":\"testapp\"}";
        redis.sync().set("rest:poll:?", answerToQuestionMark);

        GatewayClient.Reply polled = poll("\\ud800");
        assertEquals(400, polled.status(), polled.body());
        assertEquals("JSON did not validate against schema.", polled.json().get("error").get("message").asText());
        assertEquals("poll_id: is not Unicode text: \\ud800 at character 1 is half of a surrogate pair",
                polled.json().get("error").get("cause").asText());

        GatewayClient.Reply fed = gateway.client().postJson("/feed", "{\"appid\": \"testapp\", \"uuid\": \"\\ud800\", \"stats\": \"queue\"}");
        assertEquals(400, fed.status(), "its answer could not be told from that of uuid ?: " + fed.body());
        assertEquals("Does not match the stats schema: uuid: is not Unicode text: \\ud800 at character 1 is half of a surrogate pair",
                fed.json().get("error").get("cause").asText());

        double unreadable = gateway.counter("rest.answers", "route", "unreadable");
        responder.publish("{\"uuid\":\"\\ud800\",\"appid\":\"testapp\"}");
        Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> gateway.counter("rest.answers", "route", "unreadable") == unreadable + 1);
        assertEquals(answerToQuestionMark, redis.sync().get("rest:poll:?"), "neither taken nor overwritten");
    }

    /** A cookie the crawler could not send as a header is refused here with its character, not sent to be lost. */
    @Test
    void aCookieWithALineBreakIsRefusedAndNotSent() {
        double sent = gateway.counter("rest.feed", "outcome", "sent");
        GatewayClient.Reply fed = gateway.client().postJson("/feed", "{\"url\": \"http://127.0.0.1:8080/inj1\", \"appid\": \"testapp\", "
                + "\"crawlid\": \"inj1\", \"cookie\": \"a=1\\r\\nX-Injected: yes\"}");
        assertEquals(400, fed.status(), fed.body());
        assertEquals("Does not match the scraper schema: cookie: has a character an HTTP header cannot carry, so the page could never be "
                + "fetched: U+000D at character 4", fed.json().get("error").get("cause").asText());
        assertEquals(sent, gateway.counter("rest.feed", "outcome", "sent"));
    }

    @Test
    void aCrawlRequestIsSentAsGivenAnsweredWithNullDataAndLoggedWithoutItsCookie() throws Exception {
        double before = gateway.counter("rest.feed", "outcome", "sent");
        String request = "{\"url\": \"https://www.example.com/\", \"appid\": \"testapp\", \"crawlid\": \"f-crawl\", "
                + "\"cookie\": \"session=abc123\"}";
        GatewayClient.Reply reply;
        List<ILoggingEvent> logged;
        try (CapturedLog log = CapturedLog.start(FeedEndpoint.class, Level.INFO)) {
            reply = gateway.client().postJson("/feed", request);
            logged = log.events();
        }
        assertEquals(JSON.readTree("{\"status\":\"SUCCESS\",\"data\":null,\"error\":null}"), reply.json());
        assertEquals(JSON.readTree(request), JSON.readTree(responder.awaitRequest("crawlid", "f-crawl")), "sent as given");
        assertEquals(before + 1, gateway.counter("rest.feed", "outcome", "sent"));
        String content = logged.getFirst().getKeyValuePairs().getFirst().value.toString();
        assertEquals("[redacted]", JSON.readTree(content).path("cookie").asText(), content);
        assertEquals("f-crawl", JSON.readTree(content).path("crawlid").asText(), content);
    }

    @Test
    void aRequestWithinTheBodyLimitThatKafkaTakesNoRecordOfIsRefusedAsTooLargeNotAsKafkaDown() {
        String start = "{\"url\": \"https://www.example.com/\", \"appid\": \"testapp\", \"crawlid\": \"f-large\", \"attrs\": {\"p\": \"";
        String end = "\"}}";
        // JSON_MAX_DOCUMENT_BYTES exactly; with a record's own bytes it passes the producer's max.request.size, as large
        String request = start + "a".repeat(1_048_576 - start.length() - end.length()) + end;
        double down = gateway.counter("rest.feed", "outcome", "kafka_unavailable");

        GatewayClient.Reply reply = gateway.client().postJson("/feed", request);

        assertEquals(413, reply.status(), reply.body());
        assertEquals("The payload is too large.", reply.json().path("error").path("message").asText());
        assertTrue(reply.json().path("error").path("cause").asText().startsWith("Kafka takes no record this large: "), reply.body());
        assertEquals(down, gateway.counter("rest.feed", "outcome", "kafka_unavailable"), "Kafka is up");
        assertEquals(200, gateway.client().postJson("/feed", "{\"url\": \"https://www.example.com/\", \"appid\": \"testapp\", "
                + "\"crawlid\": \"f-after\"}").status(), "and takes the next request");
    }

    @Test
    void answersLargerThanTheLargestRequestBodyAreHandedBackAndParked(EmbeddedStack stack) throws Exception {
        try (AnsweredGateway small = AnsweredGateway.start(stack, settings -> settings.set("WAIT_FOR_RESPONSE_TIME", "1")
                .set("JSON_MAX_DOCUMENT_BYTES", "1024"))) {
            String domains = "{" + IntStream.range(0, 200).mapToObj(i -> "\"d" + i + ".test\":{\"low_priority\":1}")
                    .collect(Collectors.joining(",")) + "}";
            String waited = "{\"uuid\":\"f-big\",\"appid\":\"testapp\",\"spiderid\":\"link\",\"domains\":" + domains + "}";
            small.responder().answerWith("f-big", waited);

            GatewayClient.Reply reply = small.gateway().client().postJson("/feed",
                    "{\"action\": \"info\", \"appid\": \"testapp\", \"uuid\": \"f-big\", \"spiderid\": \"link\"}");

            assertEquals(200, reply.status(), reply.body());
            assertEquals(JSON.readTree(waited), reply.json().get("data"), "an answer of " + waited.length() + " bytes");

            String late = waited.replace("f-big", "f-big-late");
            small.responder().publish(late);
            Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> small.redis().sync().get("rest:poll:f-big-late") != null);
            GatewayClient.Reply polled = small.gateway().client().postJson("/poll", "{\"poll_id\": \"f-big-late\"}");
            assertEquals(200, polled.status(), polled.body());
            assertEquals(JSON.readTree(late), polled.json().get("data"));
        }
    }

    @Test
    void aPollWhileRedisRunsALongScriptIsAnsweredAsWhileRedisIsAway(EmbeddedStack stack) {
        redis.sync().configSet("busy-reply-threshold", "50");
        try (RedisConnection busy = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()))) {
            busy.async().eval("while true do end", ScriptOutputType.STATUS);
            try {
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> poll("f-busy").status() == 500);

                GatewayClient.Reply reply = poll("f-busy");

                assertEquals("Unable to connect to Redis", reply.json().path("error").path("message").asText(), reply.body());
            } finally {
                redis.sync().scriptKill();
            }
        } finally {
            Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> "OK".equals(redis.sync()
                    .configSet("busy-reply-threshold", "5000")));
        }
        assertEquals(404, poll("f-busy").status(), "answered again once the script is killed");
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private GatewayClient.Reply poll(String pollId) {
        return gateway.client().postJson("/poll", "{\"poll_id\": \"" + pollId + "\"}");
    }
}
