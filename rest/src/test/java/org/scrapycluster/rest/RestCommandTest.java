package org.scrapycluster.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.rest.testing.GatewayClient;
import org.scrapycluster.rest.testing.GatewaySettings;

import picocli.CommandLine;

/** {@code scrapy-cluster rest} runs the gateway until it is told to stop, then exits 0. */
@ExtendWith(SharedStack.class)
class RestCommandTest {

    @Test
    void runsUntilInterrupted(EmbeddedStack stack) throws InterruptedException {
        int port = FreePorts.pick();
        AtomicInteger status = new AtomicInteger(-1);
        Thread command = Thread.ofPlatform().start(() -> status.set(new CommandLine(new RestCommand()).execute(
                "--log-level", "WARNING", "--set", "FLASK_HOST=127.0.0.1", "--set", "FLASK_PORT=" + port,
                "--set", "KAFKA_HOSTS=" + stack.kafkaBootstrap(), "--set", "REDIS_HOST=127.0.0.1",
                "--set", "REDIS_PORT=" + stack.redisPort(), "--set", "KAFKA_TOPIC_PREFIX=" + GatewaySettings.unique("cmd"))));
        try {
            GatewayClient client = new GatewayClient(URI.create("http://127.0.0.1:" + port));
            Awaitility.await().atMost(Duration.ofMinutes(1)).ignoreExceptions()
                    .until(() -> "GREEN".equals(client.get("/").json().get("node_health").asText()));
        } finally {
            command.interrupt();
            command.join(Duration.ofMinutes(1));
        }
        assertEquals(0, status.get());
    }
}
