package org.scrapycluster.kafkamonitor.testing;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.EmbeddedStack;

/**
 * Settings of a Kafka monitor under test: pointed at the shared stack, with a topic prefix,
 * incoming topic and consumer group of its own, no metrics endpoint and no stats dumps, plus
 * whatever the test sets.
 */
public final class MonitorSettings {

    private final Map<String, String> values = new LinkedHashMap<>();
    private final String prefix;

    private MonitorSettings(String kafka, int redisPort) {
        this.prefix = unique("t");
        values.put("KAFKA_HOSTS", kafka);
        values.put("REDIS_HOST", "127.0.0.1");
        values.put("REDIS_PORT", Integer.toString(redisPort));
        values.put("REDIS_SOCKET_TIMEOUT", "2");
        values.put("KAFKA_TOPIC_PREFIX", prefix);
        values.put("KAFKA_INCOMING_TOPIC", prefix + ".incoming");
        values.put("KAFKA_GROUP", prefix + "-group");
        values.put("METRICS_PORT", "-1");
        values.put("STATS_DUMP", "0");
        values.put("LOG_LEVEL", "WARNING");
    }

    /** Settings for the shared stack's Kafka and Redis. */
    public static MonitorSettings forStack(EmbeddedStack stack) {
        return new MonitorSettings(stack.kafkaBootstrap(), stack.redisPort());
    }

    /** Settings for the shared stack's Kafka and another Redis. */
    public static MonitorSettings forStack(EmbeddedStack stack, int redisPort) {
        return new MonitorSettings(stack.kafkaBootstrap(), redisPort);
    }

    /** A name no other test uses, free of ':' and legal in a topic name. */
    public static String unique(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    public MonitorSettings set(String name, String value) {
        values.put(name, value);
        return this;
    }

    /** The topic prefix of this monitor's topics. */
    public String prefix() {
        return prefix;
    }

    public String incomingTopic() {
        return values.get("KAFKA_INCOMING_TOPIC");
    }

    /** What was set, as {@code --set} would set it. */
    public Map<String, String> values() {
        return Map.copyOf(values);
    }

    public Settings build() {
        return Settings.load("kafka-monitor", new SettingsSources(null, Map.of(), values));
    }
}
