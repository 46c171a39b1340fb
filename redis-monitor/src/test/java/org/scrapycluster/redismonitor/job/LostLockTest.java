package org.scrapycluster.redismonitor.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.jobs.JobKeys;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonInputException;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.redis.RedisLocks;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;


/**
 * A monitor that loses a job's lock while it handles the job (paused longer than {@code REDIS_LOCK_EXPIRATION},
 * or cut off from Redis across its renewals) while another monitor takes the job over: both answer the request
 * they both read, as two Python monitors would, and the requests written after the other monitor finished are
 * still each answered.
 */
@ExtendWith(SharedStack.class)
class LostLockTest {

    private static final Json JSON = new Json(new JsonLimits(64, 1 << 20, 1 << 20));

    private RedisConnection redis;
    private RedisLocks locks;
    private MockProducer<String, byte[]> kafka;
    private JobProcessor processor;
    private String key;

    @BeforeEach
    void connect(EmbeddedStack stack) {
        redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()));
        locks = new RedisLocks(redis, Duration.ofSeconds(6));
        kafka = new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
        processor = TestJobProcessor.of(redis, locks, kafka, "lostlock", 3);
        key = "pausetest:" + UUID.randomUUID() + ":job";
    }

    @AfterEach
    void close() {
        redis.sync().del(key, Keyspace.JOB_WAITING.fill(key), Keyspace.JOB_ANSWERS.fill(key), Keyspace.lock(key));
        locks.close();
        redis.close();
    }

    @Test
    void requestsWrittenAfterTheJobWasTakenOverAreEachAnswered() throws Exception {
        PausingPlugin plugin = new PausingPlugin();
        JobKeys.write(redis, key, "v1").join();
        CompletableFuture<Void> paused = CompletableFuture.runAsync(() -> process(plugin));
        plugin.entered.await();

        redis.sync().del(Keyspace.lock(key)); // its lock expires while the first monitor is paused
        process(plugin); // another monitor takes the job over, answers v1 and deletes the job
        JobKeys.write(redis, key, "v2").join();
        JobKeys.write(redis, key, "v3").join();
        plugin.resume.countDown();
        paused.get(1, TimeUnit.MINUTES);
        process(plugin); // the next monitor to handle the job

        assertEquals(List.of("v1", "v1", "v2", "v3"), answeredUuids(),
                "v1 is answered by both monitors that ran it; v2 and v3, written after, are each answered once");
    }

    private void process(JobPlugin plugin) {
        try {
            processor.process(plugin, key);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private List<String> answeredUuids() throws JsonInputException {
        List<String> uuids = new ArrayList<>();
        for (ProducerRecord<String, byte[]> record : kafka.history()) {
            uuids.add(JSON.readTree(record.value()).path("uuid").asText());
        }
        return uuids;
    }

    /** Answers each request with its value as uuid; its first job stops until {@code resume}, as a paused monitor. */
    private static final class PausingPlugin implements JobPlugin {

        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch resume = new CountDownLatch(1);

        @Override
        public String name() {
            return "PausingPlugin";
        }

        @Override
        public String pattern() {
            return "pausetest:*:*";
        }

        @Override
        public List<Answer> handle(Job job) throws InterruptedException {
            if (entered.getCount() > 0) {
                entered.countDown();
                resume.await();
            }
            return List.of(new Answer("app", Map.of("uuid", job.value()), "Sent pausetest to kafka"));
        }
    }
}
