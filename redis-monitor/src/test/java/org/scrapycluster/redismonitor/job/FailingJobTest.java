package org.scrapycluster.redismonitor.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.redis.RedisLocks;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;


/**
 * A job whose plugin fails, with an error of its own code rather than an exception (a class its jar lacks), or in its
 * precondition: the failure is the job's, counted and retried, and the job given up and its requester told, as for
 * an exception; the monitor goes on with the other jobs.
 */
@ExtendWith(SharedStack.class)
class FailingJobTest {

    private static final Json JSON = new Json(new JsonLimits(64, 1 << 20, 1 << 20));

    private RedisConnection redis;
    private RedisLocks locks;
    private MockProducer<String, byte[]> kafka;
    private JobProcessor processor;
    private String key;
    private String otherKey;

    @BeforeEach
    void connect(EmbeddedStack stack) {
        redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort()));
        locks = new RedisLocks(redis, Duration.ofSeconds(6));
        kafka = new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
        processor = TestJobProcessor.of(redis, locks, kafka, "failingjob", 2);
        key = "brokenjar:" + UUID.randomUUID() + ":job";
        otherKey = "answered:" + UUID.randomUUID() + ":job";
    }

    @AfterEach
    void close() {
        for (String job : List.of(key, otherKey)) {
            redis.sync().del(job, Keyspace.JOB_WAITING.fill(job), Keyspace.JOB_ANSWERS.fill(job), Keyspace.lock(job), JobFailures.key(job));
        }
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

    @Test
    void aJobGivenUpWhosePluginCannotWordTheErrorIsDeletedWithoutAnAnswer() throws Exception {
        JobKeys.write(redis, key, "v1").join();
        JobPlugin speechless = new BrokenJarPlugin() {
            @Override
            public Optional<Answer> errorAnswer(Job job, String error) {
                throw new IllegalStateException("a bug");
            }
        };

        for (int attempt = 1; attempt <= 3; attempt++) {
            processor.process(speechless, key);
        }

        assertEquals(0L, redis.sync().exists(key), "given up at the third failure, and deleted, rather than failing every scan after");
        assertEquals(List.of(), errors());
    }

    @Test
    void aPluginWhoseIsDueThrowsFailsThatJobAloneAndTheScanGoesOnToTheOtherJobs() throws Exception {
        JobKeys.write(redis, key, "v1").join();
        JobKeys.write(redis, otherKey, "v2").join();
        JobScanner scanner = new JobScanner(redis, List.of(new UndecidedPlugin(), new AnsweringPlugin()), processor, Clock.systemUTC(),
                Duration.ZERO);

        scanner.scanOnce();

        assertEquals("1", redis.sync().get(JobFailures.key(key)), "counted as a failure of its job");
        assertEquals(0L, redis.sync().exists(otherKey), "the job of the plugin after it is handled");
    }

    private List<String> errors() throws JsonInputException {
        List<String> errors = new ArrayList<>();
        for (ProducerRecord<String, byte[]> record : kafka.history()) {
            errors.add(JSON.readTree(record.value()).path("error").asText());
        }
        return errors;
    }

    /** A plugin whose jar lacks a library its {@code handle} uses; it answers failures with the error. */
    private static class BrokenJarPlugin implements JobPlugin {

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

    /** A plugin with a bug in its precondition. */
    private static final class UndecidedPlugin implements JobPlugin {

        @Override
        public String name() {
            return "UndecidedPlugin";
        }

        @Override
        public String pattern() {
            return "brokenjar:*:*";
        }

        @Override
        public boolean isDue(Job job, Instant now) {
            throw new IllegalStateException("a bug");
        }

        @Override
        public List<Answer> handle(Job job) {
            return List.of();
        }
    }

    /** A plugin that answers each of its jobs with its value. */
    private static final class AnsweringPlugin implements JobPlugin {

        @Override
        public String name() {
            return "AnsweringPlugin";
        }

        @Override
        public String pattern() {
            return "answered:*:*";
        }

        @Override
        public List<Answer> handle(Job job) {
            return List.of(new Answer("app", Map.of("uuid", job.value()), "Sent answered to kafka"));
        }
    }
}
