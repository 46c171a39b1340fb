package org.scrapycluster.standalone.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The monitor plugins example, {@code examples/queue-peek/target/queue-peek.jar}, as a user deploys it: in a plugin
 * folder (on no class path), listed in the Kafka monitor's and the Redis monitor's {@code PLUGINS}. Three crawl requests
 * wait in a queue no crawler takes from; a {@code peek} request sent through Kafka is answered on the outbound topic
 * with the queue's size and its first two requests, highest priority first.
 */
@ExtendWith(SharedStack.class)
class QueuePeekAcceptanceTest {

    private static final Path PLUGINS = Path.of("target", "example-plugins");

    @Test
    void aPeekRequestIsAnsweredWithTheHeadOfTheDomainsQueue(EmbeddedStack stack) {
        assertTrue(Files.isRegularFile(PLUGINS.resolve("queue-peek.jar")), "the build copies the example's jar into " + PLUGINS);
        String appid = AcceptanceCluster.unique("peek");
        try (AcceptanceCluster cluster = new AcceptanceCluster(stack).set("PLUGIN_DIRS", PLUGINS.toAbsolutePath().toString())
                .set("kafka-monitor.PLUGINS", "{com.example.peek.PeekHandler: 600}").set("redis-monitor.PLUGINS", "{peek: 600}")
                .startWithCrawlers(0)) {
            cluster.send("url", "http://shop.example.com/low", "appid", appid, "crawlid", "c1", "priority", 10);
            cluster.send("url", "http://shop.example.com/high", "appid", appid, "crawlid", "c2", "priority", 90);
            cluster.send("url", "http://shop.example.com/middle", "appid", appid, "crawlid", "c3", "priority", 50);
            String queue = Keyspace.queue("link", "example.com");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> cluster.redis().sync().zcard(queue) == 3);

            String uuid = AcceptanceCluster.unique("uuid");
            cluster.send("action", "peek", "appid", appid, "uuid", uuid, "spiderid", "link", "domain", "Example.com", "count", 2);
            JsonNode answer = cluster.outbound().awaitUuid(uuid);

            assertEquals("peek", answer.get("action").asText(), answer.toString());
            assertEquals("example.com", answer.get("domain").asText());
            assertEquals(3, answer.get("total").asInt());
            List<String> urls = StreamSupport.stream(answer.get("requests").spliterator(), false)
                    .map(request -> request.get("url").asText()).toList();
            assertEquals(List.of("http://shop.example.com/high", "http://shop.example.com/middle"), urls);
            assertEquals(90, answer.get("requests").get(0).get("priority").asInt());
        }
    }
}
