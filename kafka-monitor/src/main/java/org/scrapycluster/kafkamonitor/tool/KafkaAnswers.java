package org.scrapycluster.kafkamonitor.tool;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Whether Kafka answers a tool, said in its own words. At the start, a first answer slow in coming: the tool says that it
 * waits, after {@link #patience}, rather than say nothing until it gives up. While a {@code dump} runs: a consumer that
 * reads nothing new still has its fetches answered (empty, each after {@code fetch.max.wait.ms}), so a period in which
 * its count of fetches answered ({@code fetch-total}) did not move, while it has partitions to fetch from, is a Kafka
 * that is away. Said once when it goes, and once when it answers again; Kafka's own client only warns about once a
 * minute, in its own terms.
 */
final class KafkaAnswers {

    private static final Duration PATIENCE = Duration.ofSeconds(5);
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

    /**
     * How long a tool waits for Kafka's first answer before it says that it waits ({@link #notYet}): 5 s, or half of
     * {@code wait} when that is shorter.
     */
    static Duration patience(Duration wait) {
        return wait.dividedBy(2).compareTo(PATIENCE) < 0 ? wait.dividedBy(2) : PATIENCE;
    }

    /** What a tool says when Kafka at {@code hosts} has not answered within its {@link #patience}, of a {@code wait} in all. */
    static String notYet(String hosts, Duration wait) {
        return "Kafka at " + hosts + " does not answer yet: waiting for it, up to " + wait.toSeconds() + " s in all (Ctrl-C to stop)";
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
