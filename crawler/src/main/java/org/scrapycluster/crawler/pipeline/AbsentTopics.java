package org.scrapycluster.crawler.pipeline;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The app topics ({@code <prefix>.crawled_<appid>}) Kafka took nothing for although it took the same page on the
 * firehose: topics it neither has nor creates, on a cluster whose automatic topic creation is off. A send to such
 * a topic holds the worker for the producer's {@code max.block.ms} before it fails, so after each failure the
 * topic is skipped for a while, and the failure is logged once for that while. Thread-safe.
 */
final class AbsentTopics {

    private static final Logger LOG = LoggerFactory.getLogger(AbsentTopics.class);

    private final Clock clock;
    private final Duration skipFor;
    private final ConcurrentMap<String, Instant> skippedUntil = new ConcurrentHashMap<>();

    AbsentTopics(Clock clock, Duration skipFor) {
        this.clock = clock;
        this.skipFor = skipFor;
    }

    /** Whether to send nothing to {@code topic} now. */
    boolean skipped(String topic) {
        Instant until = skippedUntil.get(topic);
        return until != null && clock.instant().isBefore(until);
    }

    /** Kafka did not take a message for {@code topic} while it took the firehose's. */
    void absent(String topic, Throwable cause) {
        Instant now = clock.instant();
        Instant before = skippedUntil.put(topic, now.plus(skipFor));
        if (before == null || !now.isBefore(before)) {
            LOG.atError().addKeyValue("topic", topic).addKeyValue("exception", cause.toString())
                    .log("Kafka takes pages on the firehose but not on " + topic + ": pages go to the firehose only for the next "
                            + skipFor.toSeconds() + " s. Create that topic where Kafka does not create topics itself");
        }
    }
}
