package org.scrapycluster.kafkamonitor.tool;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Whether Kafka still answers a running {@code dump}, said in its own words. A consumer that reads nothing new still has
 * its fetches answered (empty, each after {@code fetch.max.wait.ms}), so a period in which its count of fetches answered
 * ({@code fetch-total}) did not move, while it has partitions to fetch from, is a Kafka that is away. Said once when it
 * goes, and once when it answers again; Kafka's own client only warns about once a minute, in its own terms.
 */
final class KafkaAnswers {

    private static final String FETCHES_ANSWERED = "fetch-total";
    private static final String FETCH_METRICS = "consumer-fetch-manager-metrics";

    private final String hosts;
    private final String period;
    private long answered = -1;
    private boolean away;

    /**
     * @param hosts  the Kafka the dump reads, as it names it
     * @param period how often {@link #check} is called, as its message says it
     */
    KafkaAnswers(String hosts, String period) {
        this.hosts = hosts;
        this.period = period;
    }

    /** What to say, if anything, of {@code consumer}'s fetches since the last check. */
    Optional<String> check(Consumer<?, ?> consumer) {
        if (consumer.assignment().isEmpty()) {
            answered = -1;
            return Optional.empty();
        }
        OptionalLong count = fetchesAnswered(consumer.metrics());
        return count.isPresent() ? check(count.getAsLong()) : Optional.empty();
    }

    /** What to say, if anything, now that the fetches answered so far number {@code count}. */
    Optional<String> check(long count) {
        boolean silent = count == answered;
        answered = count;
        if (silent == away) {
            return Optional.empty();
        }
        away = silent;
        return Optional.of(away ? "Kafka at " + hosts + " has not answered for " + period + "; waiting for it (Ctrl-C to stop)"
                : "Kafka at " + hosts + " answers again");
    }

    /** The consumer's count of fetches answered, over all topics; empty when its client counts none by that name. */
    static OptionalLong fetchesAnswered(Map<MetricName, ? extends Metric> metrics) {
        for (Map.Entry<MetricName, ? extends Metric> metric : metrics.entrySet()) {
            MetricName name = metric.getKey();
            if (name.name().equals(FETCHES_ANSWERED) && name.group().equals(FETCH_METRICS) && !name.tags().containsKey("topic")
                    && metric.getValue().metricValue() instanceof Number value) {
                return OptionalLong.of(value.longValue());
            }
        }
        return OptionalLong.empty();
    }
}
