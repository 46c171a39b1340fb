package org.scrapycluster.standalone.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.crawler.node.CrawlerFactory;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedKafka;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;
import org.scrapycluster.kafkamonitor.KafkaMonitorFactory;
import org.scrapycluster.redismonitor.OutboundAnswers;
import org.scrapycluster.redismonitor.RedisMonitorFactory;
import org.scrapycluster.rest.RestFactory;
import org.scrapycluster.rest.testing.TlsFixtures;

/**
 * A whole cluster on a Kafka that speaks TLS only and asks every client for a certificate, reached through
 * {@code KAFKA_CLIENT_PROPERTIES} as docs/operations.md, "Kafka over TLS", sets it: every Kafka client of the services
 * goes through it. The gateway's producer feeds a crawl and its consumer hands back an info answer; the Kafka
 * monitor's consumer reads both and its producer rejects a bad request; the crawler's producer publishes the page; the
 * Redis monitor's producer answers.
 */
@ExtendWith(SharedStack.class)
class KafkaOverTlsAcceptanceTest {

    private static final SyntheticSite SITE = SyntheticSite.builder().seed(31).domains(1).pagesPerDomain(2).linksPerPage(1)
            .pageBytes(300).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyServiceFeedsCrawlsAndAnswersThroughTheTlsListener(EmbeddedStack stack, @TempDir Path tls) throws Exception {
        Path serverPem = tls.resolve("server.pem");
        Path clientPem = tls.resolve("client.pem");
        Files.writeString(serverPem, Files.readString(TlsFixtures.copy("server.key", tls.resolve("server.key")))
                + Files.readString(TlsFixtures.copy("server.crt", tls.resolve("server.crt"))));
        Files.writeString(clientPem, Files.readString(TlsFixtures.copy("client.key", tls.resolve("client.key")))
                + Files.readString(TlsFixtures.copy("client.crt", tls.resolve("client.crt"))));
        Path ca = TlsFixtures.copy("ca.crt", tls.resolve("ca.crt"));
        String clientProperties = "{security.protocol: SSL, ssl.truststore.type: PEM, ssl.truststore.location: " + ca
                + ", ssl.keystore.type: PEM, ssl.keystore.location: " + clientPem + "}";
        URI gateway = URI.create("http://127.0.0.1:" + FreePorts.pick());

        try (EmbeddedKafka kafka = EmbeddedKafka.startOverTls(1, DataDirectory.temporary("kafka-tls-acceptance-"), serverPem, ca);
             TestOrigin origin = TestOrigin.start(SITE);
             AcceptanceCluster cluster = new AcceptanceCluster(stack).throttle(10, 1, false)
                     .set("KAFKA_HOSTS", kafka.bootstrapServers()).set("KAFKA_CLIENT_PROPERTIES", clientProperties)
                     .set("FLASK_HOST", "127.0.0.1").set("FLASK_PORT", gateway.getPort()).set("WAIT_FOR_RESPONSE_TIME", 60)
                     .start(1, new KafkaMonitorFactory(), new RedisMonitorFactory(), new CrawlerFactory(), new RestFactory());
             OutboundAnswers rejected = cluster.reader(cluster.topics().incomingRejected());
             HttpClient http = HttpClient.newHttpClient()) {
            Awaitility.await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200))
                    .until(() -> "GREEN".equals(get(http, gateway.resolve("/")).path("node_health").asText()));
            String appid = AcceptanceCluster.unique("app");
            String page = origin.pageUrl(SITE.pages().getFirst());

            JsonNode fed = post(http, gateway.resolve("/feed"),
                    "{\"url\":\"" + page + "\",\"appid\":\"" + appid + "\",\"crawlid\":\"tls\"}");
            assertEquals("SUCCESS", fed.path("status").asText(), fed.toString());
            JsonNode crawled = cluster.results().await(result -> appid.equals(result.path("appid").asText()));
            assertEquals(page, crawled.path("url").asText());
            assertEquals(200, crawled.path("status_code").asInt(), crawled.toString());

            JsonNode info = post(http, gateway.resolve("/feed"), "{\"action\":\"info\",\"appid\":\"" + appid
                    + "\",\"uuid\":\"tls-info\",\"crawlid\":\"tls\",\"spiderid\":\"link\"}");
            assertEquals("SUCCESS", info.path("status").asText(), info.toString());
            assertEquals("tls-info", info.path("data").path("uuid").asText(), info.toString());
            assertEquals(info.path("data"), cluster.outbound().awaitUuid("tls-info"), "the answer the gateway read");

            cluster.send("url", "ftp://example.com/not-http", "appid", appid, "crawlid", "tls");
            JsonNode refused = rejected.await(message -> message.path("record").asText().contains(appid));
            assertTrue(refused.path("violations").toString().contains("url"), refused.toString());
        }
    }

    private static JsonNode get(HttpClient http, URI uri) throws Exception {
        return JSON.readTree(http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    private static JsonNode post(HttpClient http, URI uri, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(90)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return JSON.readTree(http.send(request, HttpResponse.BodyHandlers.ofString()).body());
    }
}
