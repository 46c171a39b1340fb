package org.scrapycluster.common.redis;

import java.time.Duration;

import org.scrapycluster.common.metrics.LatencyBuckets;

import io.lettuce.core.metrics.CommandLatencyId;
import io.lettuce.core.metrics.MicrometerCommandLatencyRecorder;
import io.lettuce.core.metrics.MicrometerOptions;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Lettuce's command latency timers, by command, with histogram buckets sized for Redis on the completion timer only:
 * {@code lettuce_command_completion_seconds_bucket}, from which Prometheus computes the dashboard's Redis command
 * latency (docs/operations.md, "Monitoring"). The bounds are 1, 2.5 and 5 in each decade from 100 µs, under which a healthy
 * Redis answers, to 10 s, the default {@code REDIS_SOCKET_TIMEOUT}: 16 and {@code +Inf} per command, a quantile known
 * within a factor of 2.5. The first-response timer, which no query reads, has none. Lettuce's own histogram had 85
 * buckets from 1 ms to 5 min for each timer and command, most of a scrape, and put every sub-millisecond command in its
 * first bucket; its percentiles would keep an HdrHistogram per command, updated on the event loop for every reply and
 * never published.
 */
final class RedisLatencyRecorder extends MicrometerCommandLatencyRecorder {

    private static final Duration[] COMPLETION_BUCKETS = LatencyBuckets.decades(Duration.ofNanos(100_000), Duration.ofSeconds(10));

    private final MeterRegistry meters;

    /** Records into {@code meters}, all connections to one Redis together ({@code local="local:any"}). */
    RedisLatencyRecorder(MeterRegistry meters) {
        super(meters, MicrometerOptions.builder().histogram(false).localDistinction(false).build());
        this.meters = meters;
    }

    /** Lettuce's completion timer, with its name and tags, and these buckets. */
    @Override
    protected Timer completionTimer(CommandLatencyId id) {
        return Timer.builder("lettuce.command.completion")
                .description("Latency between command send and command completion (complete response received)")
                .tag("command", id.commandType().toString())
                .tag("local", id.localAddress().toString())
                .tag("remote", id.remoteAddress().toString())
                .serviceLevelObjectives(COMPLETION_BUCKETS)
                .register(meters);
    }
}
