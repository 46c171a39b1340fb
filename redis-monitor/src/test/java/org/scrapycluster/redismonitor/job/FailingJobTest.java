package org.scrapycluster.redismonitor.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.lettuce.core.RedisLoadingException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.jobs.JobKeys;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.redismonitor.outbound.OutboundUnavailableException;

/**
 * A job whose plugin fails, with an error of its own code rather than an exception (a class its jar lacks), or in its
 * precondition: the failure is the job's, counted and retried, and the job given up and its requester told, as for
 * an exception; the monitor goes on with the other jobs, and tries the failed one again once it is due rather than at
 * the next scan. A plugin that cannot name its keys is passed over. A Redis answering about itself (loading its data)
 * is an outage, not the job's failure.
 */
@ExtendWith(SharedStack.class)
class FailingJobTest {

    private JobTestBed bed;
    private String key;
    private String otherKey;

    @BeforeEach
    void connect(EmbeddedStack stack) {
        bed = new JobTestBed(stack, "failingjob", 2);
        key = "brokenjar:" + UUID.randomUUID() + ":job";
        otherKey = "answered:" + UUID.randomUUID() + ":job";
    }

    @AfterEach
    void close() {
        for (String job : List.of(key, otherKey)) {
            bed.redis.sync().del(job, Keyspace.JOB_WAITING.fill(job), Keyspace.JOB_ANSWERS.fill(job), Keyspace.lock(job), JobFailures.key(job));
        }
        bed.close();
    }

    @Test
    void aPluginWhoseJarLacksAClassFailsItsJobUntilItIsGivenUpAndTheRequesterTold() throws Exception {
        JobKeys.write(bed.redis, key, "v1").join();

        for (int attempt = 1; attempt <= 3; attempt++) {
            bed.processor.process(new BrokenJarPlugin(), key);
        }

        assertEquals(0L, bed.redis.sync().exists(key), "two failures counted, given up at the third, and deleted");
        assertEquals(List.of("Could not process the request within the failure limit: com/example/Missing"), bed.answered("error"));
    }

    @Test
    void aPluginWhoseHandleReturnsNullFailsItsJobNamingItUntilItIsGivenUp() throws Exception {
        JobKeys.write(bed.redis, key, "v1").join();
        JobPlugin answerless = new BrokenJarPlugin() {
            @Override
            public List<Answer> handle(Job job) {
                return null;
            }
        };

        for (int attempt = 1; attempt <= 3; attempt++) {
            bed.processor.process(answerless, key);
        }

        assertEquals(0L, bed.redis.sync().exists(key), "two failures counted, given up at the third, and deleted");
        assertEquals(List.of("Could not process the request within the failure limit: the plugin BrokenJarPlugin returned no answers "
                + "(null) from handle; it returns an empty list to answer nothing"), bed.answered("error"));
    }

    @Test
    void aJobGivenUpWhosePluginCannotWordTheErrorIsDeletedWithoutAnAnswer() throws Exception {
        JobKeys.write(bed.redis, key, "v1").join();
        JobPlugin speechless = new BrokenJarPlugin() {
            @Override
            public Optional<Answer> errorAnswer(Job job, String error) {
                throw new IllegalStateException("a bug");
            }
        };

        for (int attempt = 1; attempt <= 3; attempt++) {
            bed.processor.process(speechless, key);
        }

        assertEquals(0L, bed.redis.sync().exists(key), "given up at the third failure, and deleted, rather than failing every scan after");
        assertEquals(List.of(), bed.answered("error"));
    }

    @Test
    void aJobGivenUpWhoseErrorAnswerKafkaRefusesIsDeletedWithoutAnAnswerNotTriedForEver() throws Exception {
        JobKeys.write(bed.redis, key, "v1").join();
        // as for an error answer that repeats a huge id of its request, larger than Kafka takes
        bed.kafka.sendException = new RecordTooLargeException("The message is 2400361 bytes when serialized which is larger than "
                + "1048576, which is the value of the max.request.size configuration.");

        for (int attempt = 1; attempt <= 3; attempt++) {
            bed.processor.process(new BrokenJarPlugin(), key);
        }

        assertEquals(0L, bed.redis.sync().exists(key), "given up at the third failure, and deleted, though its requester cannot be told");
        assertEquals(0L, bed.redis.sync().exists(JobFailures.key(key)));
        assertEquals(0L, bed.redis.sync().exists(Keyspace.JOB_WAITING.fill(key)));
    }

    /** An answer Kafka refuses for good (a stats answer listing 50,000 domains) is not worked out again at every attempt. */
    @Test
    void aJobWhoseAnswerKafkaRefusesForGoodIsGivenUpAtOnceAndItsRequesterTold() throws Exception {
        JobKeys.write(bed.redis, key, "v1").join();
        AtomicInteger handled = new AtomicInteger();
        JobPlugin tooLarge = new BrokenJarPlugin() {
            @Override
            public List<Answer> handle(Job job) {
                handled.incrementAndGet();
                bed.kafka.sendException = new RecordTooLargeException("The message is 2400361 bytes when serialized");
                return List.of(new Answer("app", Map.of("uuid", job.value(), "domains", "…"), "Sent a large answer to kafka"));
            }

            @Override
            public Optional<Answer> errorAnswer(Job job, String error) {
                bed.kafka.sendException = null;
                return super.errorAnswer(job, error);
            }
        };

        bed.processor.process(tooLarge, key);

        assertEquals(1, handled.get());
        assertEquals(0L, bed.redis.sync().exists(key), "given up at once, and deleted");
        assertEquals(List.of("Kafka refused the answer as too large (KAFKA_PRODUCER_MAX_REQUEST_SIZE bounds it before "
                + "compression, the topic's max.message.bytes after): The message is 2400361 bytes when serialized"),
                bed.answered("error"));
    }

    @Test
    void aJobGivenUpWhileKafkaIsAwayIsGivenUpAgainAtItsNextFailureNotTriedAsOftenOnceMore() throws Exception {
        JobKeys.write(bed.redis, key, "v1").join();
        AtomicInteger handled = new AtomicInteger();
        JobPlugin counted = new BrokenJarPlugin() {
            @Override
            public List<Answer> handle(Job job) {
                handled.incrementAndGet();
                return super.handle(job);
            }
        };
        bed.processor.process(counted, key);
        bed.processor.process(counted, key);
        bed.kafka.sendException = new TimeoutException("Kafka is away");
        assertThrows(OutboundUnavailableException.class, () -> bed.processor.process(counted, key), "given up, its requester not told");
        assertEquals(1L, bed.redis.sync().exists(key), "kept until its requester is told");

        bed.kafka.sendException = null;
        bed.processor.process(counted, key);

        assertEquals(4, handled.get(), "run once more, not as many times again as before it was given up");
        assertEquals(0L, bed.redis.sync().exists(key));
        assertEquals(List.of("Could not process the request within the failure limit: com/example/Missing"), bed.answered("error"));
    }

    @Test
    void aSignalledJobThatFailsIsTriedAgainOnceDueWithoutWaitingForAScan(EmbeddedStack stack) throws Exception {
        JobKeys.post(bed.redis, key, "v1");
        try (JobSignalListener listener = new JobSignalListener(RedisEndpoint.of("127.0.0.1", stack.redisPort()),
                List.of(new BrokenJarPlugin()), bed.processor, bed.retries)) {
            runUntil(listener, () -> "1".equals(bed.redis.sync().get(JobFailures.key(key))));
            listener.run();
            assertEquals("1", bed.redis.sync().get(JobFailures.key(key)), "not tried again before it is due");

            bed.clock.advance(Duration.ofSeconds(1));
            runUntil(listener, () -> "2".equals(bed.redis.sync().get(JobFailures.key(key))));
            bed.clock.advance(Duration.ofSeconds(1));
            runUntil(listener, () -> bed.redis.sync().exists(key) == 0);
        }
        assertEquals(List.of("Could not process the request within the failure limit: com/example/Missing"), bed.answered("error"));
        assertEquals(List.of(), bed.retries.takeDue(), "a job given up is not tried again");
    }

    /** Runs {@code listener} until {@code done}, for at most 20 signals or waits of a second. */
    private static void runUntil(JobSignalListener listener, BooleanSupplier done) throws Exception {
        for (int run = 0; run < 20 && !done.getAsBoolean(); run++) {
            listener.run();
        }
        assertTrue(done.getAsBoolean());
    }

    @Test
    void aRedisAnsweringAboutItselfIsAnOutageThatLeavesTheJobUncounted() throws Exception {
        JobKeys.write(bed.redis, key, "v1").join();
        JobPlugin meetsALoadingRedis = new BrokenJarPlugin() {
            @Override
            public List<Answer> handle(Job job) {
                throw new RedisLoadingException("LOADING Redis is loading the dataset in memory");
            }
        };

        for (int attempt = 1; attempt <= 3; attempt++) {
            assertThrows(RedisLoadingException.class, () -> bed.processor.process(meetsALoadingRedis, key), "for the worker to wait it out");
        }

        assertEquals(1L, bed.redis.sync().exists(key), "the job stays, for when Redis has loaded");
        assertEquals(0L, bed.redis.sync().exists(JobFailures.key(key)), "no failure counted against it");
        assertEquals(List.of(), bed.answered("error"));
    }

    @Test
    void aPluginWhoseIsDueThrowsFailsThatJobAloneAndTheScanGoesOnToTheOtherJobs() throws Exception {
        JobKeys.write(bed.redis, key, "v1").join();
        JobKeys.write(bed.redis, otherKey, "v2").join();
        JobScanner scanner = new JobScanner(bed.redis, List.of(new UndecidedPlugin(), new AnsweringPlugin()), bed.processor, Clock.systemUTC(),
                Duration.ZERO);

        scanner.scanOnce();

        assertEquals("1", bed.redis.sync().get(JobFailures.key(key)), "counted as a failure of its job");
        assertEquals(0L, bed.redis.sync().exists(otherKey), "the job of the plugin after it is handled");
    }

    @Test
    void aPluginWhosePatternFailsIsPassedOverAndTheScanGoesOnToTheOtherPlugins() throws Exception {
        JobKeys.write(bed.redis, otherKey, "v2").join();
        JobScanner scanner = new JobScanner(bed.redis, List.of(new LostPlugin(() -> {
            throw new NoClassDefFoundError("com/example/Missing");
        }), new LostPlugin(() -> null), new AnsweringPlugin()), bed.processor, Clock.systemUTC(), Duration.ZERO);

        scanner.scanOnce();

        assertEquals(0L, bed.redis.sync().exists(otherKey), "the job of the plugin after them is handled");
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

    /** A plugin that cannot say which keys are its jobs. */
    private record LostPlugin(Supplier<String> glob) implements JobPlugin {

        @Override
        public String name() {
            return "LostPlugin";
        }

        @Override
        public String pattern() {
            return glob.get();
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
