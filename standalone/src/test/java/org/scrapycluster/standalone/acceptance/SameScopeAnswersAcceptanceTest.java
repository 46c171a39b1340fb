package org.scrapycluster.standalone.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.kafkamonitor.KafkaMonitorFactory;
import org.scrapycluster.redismonitor.OutboundAnswers;
import org.scrapycluster.redismonitor.RedisMonitorFactory;
import org.scrapycluster.rest.RestFactory;

/**
 * Twenty callers asking the same question at the same moment each get their own answer
 * (docs/redis-monitor.md "Requests of the same scope"), through Kafka and through the REST
 * gateway's {@code /feed}; and a zookeeper request whose domain has a {@code :} is refused with an
 * error answer on the requester's own topic.
 */
@ExtendWith(SharedStack.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SameScopeAnswersAcceptanceTest {

    private static final int CALLERS = 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    private AcceptanceCluster cluster;
    private URI gateway;

    @BeforeAll
    void start(EmbeddedStack stack) {
        int port = FreePorts.pick();
        gateway = URI.create("http://127.0.0.1:" + port);
        cluster = new AcceptanceCluster(stack);
        cluster.set("KAFKA_PRODUCER_TOPIC", cluster.topics().incoming()).set("FLASK_HOST", "127.0.0.1").set("FLASK_PORT", port)
                .set("WAIT_FOR_RESPONSE_TIME", 60).set("KAFKA_APPID_TOPICS", true)
                .start(0, new KafkaMonitorFactory(), new RedisMonitorFactory(), new RestFactory());
        HttpClient client = HttpClient.newHttpClient();
        Awaitility.await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(100)).until(() -> "GREEN".equals(
                JSON.readTree(client.send(HttpRequest.newBuilder(gateway.resolve("/")).build(), HttpResponse.BodyHandlers.ofString()).body())
                        .path("node_health").asText()));
    }

    @AfterAll
    void stop() {
        cluster.close();
    }

    @Test
    void twentyInfoRequestsOfOneCrawlThroughKafkaAreEachAnswered() {
        String appid = AcceptanceCluster.unique("app");
        String spider = AcceptanceCluster.unique("spider");
        List<Map<String, Object>> requests = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            requests.add(AcceptanceCluster.request("uuid", "kafka-" + i, "appid", appid, "action", "info", "spiderid", spider,
                    "crawlid", "c1"));
        }
        cluster.sendAll(requests);

        cluster.outbound().await(answer -> ("kafka-" + (CALLERS - 1)).equals(answer.path("uuid").asText()));
        Map<String, Long> perUuid = cluster.outbound().readFor(Duration.ofSeconds(1)).stream()
                .filter(answer -> appid.equals(answer.path("appid").asText()))
                .collect(Collectors.groupingBy(answer -> answer.path("uuid").asText(), Collectors.counting()));
        assertEquals(CALLERS, perUuid.size(), "every request is answered: " + perUuid);
        assertTrue(perUuid.values().stream().allMatch(count -> count == 1), "answered once each: " + perUuid);
    }

    @Test
    void twentyCallersOfFeedAskingTheSameStatsEachGetTheirOwnAnswer() throws Exception {
        String appid = AcceptanceCluster.unique("app");
        HttpClient client = HttpClient.newHttpClient();
        CountDownLatch ready = new CountDownLatch(CALLERS);
        List<CompletableFuture<JsonNode>> replies = new ArrayList<>();
        try (ExecutorService callers = Executors.newFixedThreadPool(CALLERS)) {
            for (int i = 0; i < CALLERS; i++) {
                String body = "{\"uuid\":\"feed-" + i + "\",\"appid\":\"" + appid + "\",\"stats\":\"kafka-monitor\"}";
                replies.add(CompletableFuture.supplyAsync(() -> {
                    ready.countDown();
                    await(ready);
                    return post(client, body);
                }, callers));
            }
            for (int i = 0; i < CALLERS; i++) {
                JsonNode reply = replies.get(i).get();
                assertEquals("SUCCESS", reply.path("status").asText(), reply.toString());
                assertEquals("feed-" + i, reply.path("data").path("uuid").asText(), "caller " + i + " got " + reply);
                assertEquals("kafka-monitor", reply.path("data").path("stats").asText(), reply.toString());
            }
        }
    }

    @Test
    void aZookeeperDomainWithAColonIsRefusedToItsApp() {
        String appid = AcceptanceCluster.unique("app");
        try (OutboundAnswers own = cluster.reader(cluster.topics().outbound(appid))) {
            cluster.send("uuid", "zk-colon", "appid", appid, "action", "blacklist-update", "domain", "evil.com:x");
            JsonNode answer = own.awaitUuid("zk-colon");
            assertEquals(appid, answer.path("appid").asText());
            assertTrue(answer.path("error").toString().contains("domain: must not contain ':'"), answer.toString());
        }
    }

    private JsonNode post(HttpClient client, String body) {
        HttpRequest request = HttpRequest.newBuilder(gateway.resolve("/feed")).timeout(Duration.ofSeconds(90))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
        try {
            return JSON.readTree(client.send(request, HttpResponse.BodyHandlers.ofString()).body());
        } catch (IOException e) {
            throw new IllegalStateException("cannot POST " + body, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
