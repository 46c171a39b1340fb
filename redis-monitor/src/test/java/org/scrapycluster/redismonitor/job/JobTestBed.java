package org.scrapycluster.redismonitor.job;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonInputException;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.kafka.TopicReach;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.redis.RedisKeys;
import org.scrapycluster.common.redis.RedisLocks;
import org.scrapycluster.common.stats.StatsRecorder;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.ManualClock;
import org.scrapycluster.redismonitor.outbound.OutboundPublisher;

/**
 * What the job tests process jobs with: a connection to the stack's Redis, its locks, and a job processor whose
 * answers go to a Kafka stand-in (its reach is never asked of a broker).
 */
final class JobTestBed implements AutoCloseable {

    private static final Json JSON = new Json(new JsonLimits(64, 1 << 20, 1 << 20));

    final RedisConnection redis;
    final RedisLocks locks;
    final MockProducer<String, byte[]> kafka;
    final ManualClock clock = new ManualClock();
    /** The jobs to try again, due a second after the processor came to them by {@link #clock}. */
    final JobRetries retries = new JobRetries(clock, Duration.ofSeconds(1));
    final JobProcessor processor;

    /** Answers on topics of {@code prefix}; a job is given up after {@code attempts} failures. */
    JobTestBed(EmbeddedStack stack, String prefix, int attempts) {
        this(stack.redisPort(), prefix, attempts);
    }

    /** As {@link #JobTestBed(EmbeddedStack, String, int)}, on the Redis at {@code redisPort}. */
    JobTestBed(int redisPort, String prefix, int attempts) {
        this(redisPort, prefix, attempts, true);
    }

    /** @param kafkaTakesAtOnce whether the Kafka stand-in takes each answer at once, or when the test says */
    JobTestBed(int redisPort, String prefix, int attempts, boolean kafkaTakesAtOnce) {
        kafka = new MockProducer<>(kafkaTakesAtOnce, null, new StringSerializer(), new ByteArraySerializer());
        redis = RedisConnection.open(RedisEndpoint.of("127.0.0.1", redisPort));
        locks = new RedisLocks(redis, Duration.ofSeconds(6));
        OutboundPublisher outbound = new OutboundPublisher(kafka, Topics.withPrefix(prefix), false, Duration.ofSeconds(10), JSON,
                new TopicReach(prefix + ".outbound_firehose", (topic, wait) -> new CompletableFuture<>(), () -> { }, Clock.systemUTC(),
                        Duration.ofSeconds(30)), Clock.systemUTC());
        JobStats stats = new JobStats(new StatsRecorder(redis, prefix, Clock.systemUTC(), Duration.ofSeconds(1)), List.of(),
                false, false, new SimpleMeterRegistry());
        processor = new JobProcessor(redis, locks, new JobFailures(redis, true, attempts), outbound, stats, Clock.systemUTC(), retries);
    }

    /** The field {@code name} of every answer sent, in order. */
    List<String> answered(String name) throws JsonInputException {
        List<String> values = new ArrayList<>();
        for (ProducerRecord<String, byte[]> record : kafka.history()) {
            values.add(JSON.readTree(record.value()).path(name).asText());
        }
        return values;
    }

    /** Deletes every key whose name holds {@code part}: what a test wrote under its prefix. */
    void deleteKeysContaining(String part) {
        List<String> keys = RedisKeys.scan(redis, "*" + part + "*");
        if (!keys.isEmpty()) {
            redis.sync().del(keys.toArray(String[]::new));
        }
    }

    @Override
    public void close() {
        locks.close();
        redis.close();
    }
}
