package org.scrapycluster.kafkamonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.kafkamonitor.testing.KafkaTopics;
import org.scrapycluster.kafkamonitor.testing.MonitorSettings;
import org.scrapycluster.kafkamonitor.testing.ToolRunner;

/** {@code scrapy-cluster kafka-monitor} runs the monitor until it is told to stop. */
@ExtendWith(SharedStack.class)
class KafkaMonitorCommandTest {

    private final EmbeddedStack stack;

    KafkaMonitorCommandTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @Test
    void runsTheMonitorUntilStopped() throws Exception {
        MonitorSettings settings = MonitorSettings.forStack(stack);
        String spider = MonitorSettings.unique("sp");
        List<String> args = new ArrayList<>();
        settings.values().forEach((name, value) -> args.addAll(List.of("--set", name + "=" + value)));
        ToolRunner command = new ToolRunner(new KafkaMonitorCommand());
        AtomicInteger status = new AtomicInteger(-1);
        Thread running = Thread.ofPlatform().start(() -> status.set(command.execute(args)));

        try (KafkaTopics kafka = new KafkaTopics(stack.kafkaBootstrap());
             RedisConnection redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()))) {
            kafka.sendText(settings.incomingTopic(), "{\"url\":\"http://www.command-example.com/\",\"appid\":\"testapp\",\"crawlid\":\"c1\",\"spiderid\":\"" + spider + "\"}");
            Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> redis.sync().zcard(spider + ":command-example.com:queue") == 1);
        } finally {
            running.interrupt();
            running.join(Duration.ofMinutes(1));
        }

        assertFalse(running.isAlive());
        assertEquals(0, status.get(), command.err());
    }
}
