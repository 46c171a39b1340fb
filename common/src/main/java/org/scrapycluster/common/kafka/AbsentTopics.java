package org.scrapycluster.common.kafka;

import java.time.InstantSource;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topics Kafka took nothing for although it answered the sender (it took the same message on the firehose, or
 * its consumer's polls): topics it neither has nor creates, on a cluster whose automatic topic creation is off, such
 * as an app's {@code <prefix>.crawled_<appid>} or {@code <prefix>.outbound_<appid>}, or
 * {@code <prefix>.incoming_rejected}. A send to such a topic blocks its sender for the producer's
 * {@code max.block.ms} before it fails, so after each failure the topic is skipped for a minute, and the failure is
 * logged once for that minute (docs/operations.md, "Nothing lost"). Topics whose minute is over are forgotten whenever
 * the topics kept have doubled, so that the topics of appids sent once each do not pile up. Thread-safe.
 */
public final class AbsentTopics {

    private static final Logger LOG = LoggerFactory.getLogger(AbsentTopics.class);
    private static final Duration SKIP_FOR = Duration.ofMinutes(1);
    private static final int MIN_PRUNED_AT = 1024;

    private final InstantSource clock;
    private final ConcurrentMap<String, Instant> skippedUntil = new ConcurrentHashMap<>();
    private volatile int prunedAt = MIN_PRUNED_AT;

    /** @param clock the clock that tells when a skipped topic is tried again */
    public AbsentTopics(InstantSource clock) {
        this.clock = clock;
    }

    /** Whether to send nothing to {@code topic} now. */
    public boolean skipped(String topic) {
        Instant until = skippedUntil.get(topic);
        return until != null && clock.instant().isBefore(until);
    }

    /** How many topics are kept, skipped now or not yet forgotten: for tests. */
    int kept() {
        return skippedUntil.size();
    }

    /** Kafka did not take a message for {@code topic} while it answered otherwise. */
    public void absent(String topic, Throwable cause) {
        Instant now = clock.instant();
        if (skippedUntil.size() >= prunedAt * 2) {
            skippedUntil.values().removeIf(until -> !now.isBefore(until));
            prunedAt = Math.max(MIN_PRUNED_AT, skippedUntil.size());
        }
        Instant before = skippedUntil.put(topic, now.plus(SKIP_FOR));
        if (before == null || !now.isBefore(before)) {
            LOG.atError().addKeyValue("topic", topic).addKeyValue("exception", cause.toString())
                    .log("Kafka answers but takes nothing on " + topic + ", which gets no messages for the next "
                            + SKIP_FOR.toSeconds() + " s: create that topic where Kafka does not create topics itself,"
                            + " or let this client write to it");
        }
    }
}
