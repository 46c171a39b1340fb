package org.scrapycluster.redismonitor.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

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
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.redis.RedisLocks;
import org.scrapycluster.common.stats.StatsRecorder;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.redismonitor.outbound.OutboundPublisher;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * A job whose plugin fails with an error of its own code rather than an exception (a class its jar lacks): the
 * failure is the job's, counted and retried, and the job given up and its requester told, as for an exception; the
 * monitor's worker goes on.
 */
@ExtendWith(SharedStack.class)
class FailingJobTest {

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
        OutboundPublisher outbound = new OutboundPublisher(kafka, Topics.withPrefix("failingjob"), false, Duration.ofSeconds(10), JSON);
        JobStats stats = new JobStats(new StatsRecorder(redis, "failingjob", Clock.systemUTC(), Duration.ofSeconds(1)), List.of(),
                false, false, new SimpleMeterRegistry());
        processor = new JobProcessor(redis, locks, new JobFailures(redis, true, 2), outbound, stats, Clock.systemUTC());
        key = "brokenjar:" + UUID.randomUUID() + ":job";
    }

    @AfterEach
    void close() {
        redis.sync().del(key, Keyspace.JOB_WAITING.fill(key), Keyspace.JOB_ANSWERS.fill(key), Keyspace.lock(key), JobFailures.key(key));
        locks.close();
        redis.close();
    }

    @Test
    void aPluginWhoseJarLacksAClassFailsItsJobUntilItIsGivenUpAndTheRequesterTold() throws Exception {
        JobKeys.write(redis, key, "v1").join();

        for (int attempt = 1; attempt <= 3; attempt++) {
            processor.process(new BrokenJarPlugin(), key);
        }

        assertEquals(0L, redis.sync().exists(key), "two failures counted, given up at the third, and deleted");
        assertEquals(List.of("Could not process the request within the failure limit: com/example/Missing"), errors());
    }

    private List<String> errors() throws JsonInputException {
        List<String> errors = new ArrayList<>();
        for (ProducerRecord<String, byte[]> record : kafka.history()) {
            errors.add(JSON.readTree(record.value()).path("error").asText());
        }
        return errors;
    }

    /** A plugin whose jar lacks a library its {@code handle} uses; it answers failures with the error. */
    private static final class BrokenJarPlugin implements JobPlugin {

        @Override
        public String name() {
            return "BrokenJarPlugin";
        }

        @Override
        public String pattern() {
            return "brokenjar:*:*";
        }

        @Override
        public List<Answer> handle(Job job) {
            throw new NoClassDefFoundError("com/example/Missing");
        }

        @Override
        public Optional<Answer> errorAnswer(Job job, String error) {
            return Optional.of(new Answer("app", Map.of("uuid", job.value(), "error", error), "Sent brokenjar error to kafka"));
        }
    }
}
