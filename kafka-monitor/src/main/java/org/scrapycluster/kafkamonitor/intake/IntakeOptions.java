package org.scrapycluster.kafkamonitor.intake;

import java.time.Duration;

import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.kafkamonitor.rejection.RejectionMessages;
import org.scrapycluster.kafkamonitor.stats.IntakeStats;

/**
 * The Kafka monitor's settings whose values can be wrong, read and checked once: by the monitor as it is built, and
 * by {@code standalone --check} without building it, so that both refuse the same values with the same message.
 *
 * @param topics           {@code KAFKA_TOPIC_PREFIX}, {@code KAFKA_INCOMING_TOPIC}
 * @param json             {@code JSON_MAX_*}
 * @param unavailableAfter {@code KAFKA_UNAVAILABLE_AFTER}
 * @param maxPollRecords   {@code KAFKA_CONSUMER_MAX_POLL_RECORDS}
 * @param pollTimeout      {@code KAFKA_CONSUMER_TIMEOUT}
 * @param sleepTime        {@code SLEEP_TIME}
 * @param heartbeatTtl     {@code HEARTBEAT_TIMEOUT}
 * @param redis            {@code REDIS_*}
 * @param stats            {@code STATS_*}
 * @param fifo             {@code QUEUE_FIFO}
 */
record IntakeOptions(Topics topics, JsonLimits json, Duration unavailableAfter, int maxPollRecords, Duration pollTimeout, Duration sleepTime,
                      Duration heartbeatTtl, RedisEndpoint redis, IntakeStats.Config stats, boolean fifo) {

    /**
     * Reads the options of {@code settings}, refusing values that cannot work.
     *
     * @throws org.scrapycluster.common.settings.SettingsException naming the setting
     */
    static IntakeOptions from(Settings settings) {
        Duration sleepTime = settings.getSeconds("SLEEP_TIME");
        if (sleepTime.isNegative()) {
            throw settings.invalid("SLEEP_TIME", "cannot be negative");
        }
        RejectionMessages.maxRecordChars(settings);
        return new IntakeOptions(Topics.from(settings), JsonLimits.from(settings), Duration.ofSeconds(positive(settings, "KAFKA_UNAVAILABLE_AFTER")),
                positive(settings, "KAFKA_CONSUMER_MAX_POLL_RECORDS"), Duration.ofMillis(positive(settings, "KAFKA_CONSUMER_TIMEOUT")),
                sleepTime, Duration.ofSeconds(positive(settings, "HEARTBEAT_TIMEOUT")), RedisEndpoint.from(settings),
                IntakeStats.Config.from(settings), settings.getBoolean("QUEUE_FIFO"));
    }

    private static int positive(Settings settings, String name) {
        int value = settings.getInt(name);
        if (value < 1) {
            throw settings.invalid(name, "must be at least 1");
        }
        return value;
    }
}
