package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.jobs.JobKeys;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedKafka;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.redismonitor.job.JobFailures;

/**
 * A Redis monitor whose Kafka is not there yet: jobs stay in Redis (not counted as failures) until
 * a broker comes up at the configured address, then they are answered.
 */
@ExtendWith(SharedStack.class)
class KafkaOutageTest {

    @Test
    void keepsJobsUntilKafkaTakesTheirAnswers(EmbeddedStack stack) {
        int port = FreePorts.pick();
        try (MonitorFixture fixture = MonitorFixture.on(stack.redisPort(), "127.0.0.1:" + port, stack.zookeeperConnect(),
                "KAFKA_SEND_TIMEOUT", "1")) {
            MonitorFixture.Running monitor = fixture.startMonitor();
            String key = JobKeys.stats("rest", MonitorFixture.unique("app"));
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
}
