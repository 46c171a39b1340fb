package org.scrapycluster.kafkamonitor.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.kafkamonitor.testing.KafkaTopics;
import org.scrapycluster.kafkamonitor.testing.MonitorSettings;
import org.scrapycluster.kafkamonitor.testing.RunningMonitor;

/** A stop while a batch goes well lets it finish and commit, so that the next owner of its partitions does not take it again. */
@ExtendWith(SharedStack.class)
class GracefulStopTest {

    private static final Duration WAIT = Duration.ofMinutes(1);

    private final EmbeddedStack stack;

    GracefulStopTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @Test
    void aStopAskedForWhileABatchIsWrittenLetsItCommit() {
        MonitorSettings settings = MonitorSettings.forStack(stack);
        String app = MonitorSettings.unique("app");
        try (KafkaTopics kafka = new KafkaTopics(stack.kafkaBootstrap());
                RedisConnection redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()));
                RunningMonitor running = RunningMonitor.start(settings.build())) {
            running.awaitHealthy();
            redis.sync().clientPause(1500); // the batch's writes wait for Redis, within the tests' command timeout (2 s)
            kafka.sendText(settings.incomingTopic(),
                    "{\"url\":\"http://www.stop-example.com/\",\"appid\":\"" + app + "\",\"crawlid\":\"c1\"}",
                    "{\"uuid\":\"u-1\",\"appid\":\"" + app + "\",\"action\":\"info\",\"spiderid\":\"link\"}");
            Awaitility.await().atMost(WAIT).until(() -> running.counter("kafka.monitor.records.consumed") == 2);

            running.monitor().close(); // as SIGTERM does, while the batch waits for its writes

            assertEquals(2, kafka.committed(settings.prefix() + "-group", settings.incomingTopic()),
                    "the batch in hand was written and committed before the monitor stopped");
        }
    }
}
