package org.scrapycluster.redismonitor.job;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.Producer;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.kafka.TopicReach;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisLocks;
import org.scrapycluster.common.stats.StatsRecorder;
import org.scrapycluster.redismonitor.outbound.OutboundPublisher;

/** The job processor of the job tests: answers go to a Kafka stand-in, whose reach is never asked of a broker. */
final class TestJobProcessor {

    private static final Json JSON = new Json(new JsonLimits(64, 1 << 20, 1 << 20));

    private TestJobProcessor() {
    }

    /**
     * A processor of jobs in {@code redis} under {@code locks}, publishing to {@code kafka} on topics of {@code prefix},
     * giving a job up after {@code attempts} failures.
     */
    static JobProcessor of(RedisConnection redis, RedisLocks locks, Producer<String, byte[]> kafka, String prefix, int attempts) {
        OutboundPublisher outbound = new OutboundPublisher(kafka, Topics.withPrefix(prefix), false, Duration.ofSeconds(10), JSON,
                new TopicReach(prefix + ".outbound_firehose", topic -> new CompletableFuture<>(), () -> { }, Clock.systemUTC()));
        JobStats stats = new JobStats(new StatsRecorder(redis, prefix, Clock.systemUTC(), Duration.ofSeconds(1)), List.of(),
                false, false, new SimpleMeterRegistry());
        return new JobProcessor(redis, locks, new JobFailures(redis, true, attempts), outbound, stats, Clock.systemUTC());
    }
}
