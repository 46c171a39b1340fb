package org.scrapycluster.rest.testing;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.EmbeddedStack;

/**
 * Settings of a gateway under test: pointed at the shared stack (its ZooKeeper for the live view's
 * domain config), on a free port of 127.0.0.1, with
 * a topic prefix of its own (or one shared with another gateway), no second metrics endpoint, plus
 * whatever the test sets.
 */
public final class GatewaySettings {

    private final Map<String, String> values = new LinkedHashMap<>();

    private GatewaySettings(String kafka, String zookeeper, int redisPort, String prefix) {
        values.put("KAFKA_HOSTS", kafka);
        values.put("ZOOKEEPER_HOSTS", zookeeper);
        values.put("REDIS_HOST", "127.0.0.1");
        values.put("REDIS_PORT", Integer.toString(redisPort));
        values.put("REDIS_SOCKET_TIMEOUT", "2");
        values.put("KAFKA_TOPIC_PREFIX", prefix);
        values.put("KAFKA_PRODUCER_TOPIC", prefix + ".incoming");
        values.put("FLASK_HOST", "127.0.0.1");
        values.put("FLASK_PORT", "0");
        values.put("METRICS_PORT", "-1");
        values.put("LOG_LEVEL", "WARNING");
        values.put("KAFKA_CONSUMER_SLEEP_TIME", "0.2");
    }

    /** Settings for the shared stack, with a new topic prefix. */
    public static GatewaySettings forStack(EmbeddedStack stack) {
        return new GatewaySettings(stack.kafkaBootstrap(), stack.zookeeperConnect(), stack.redisPort(), unique("r"));
    }

    /** Settings for the shared stack's Kafka and another Redis, with a new topic prefix. */
    public static GatewaySettings forStack(EmbeddedStack stack, int redisPort) {
        return new GatewaySettings(stack.kafkaBootstrap(), stack.zookeeperConnect(), redisPort, unique("r"));
    }

    /** A name no other test uses, free of ':' and legal in a topic name. */
    public static String unique(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    public GatewaySettings set(String name, String value) {
        values.put(name, value);
        return this;
    }

    public String prefix() {
        return values.get("KAFKA_TOPIC_PREFIX");
    }

    public String incomingTopic() {
        return values.get("KAFKA_PRODUCER_TOPIC");
    }

    public String outboundTopic() {
        return prefix() + ".outbound_firehose";
    }

    public String kafka() {
        return values.get("KAFKA_HOSTS");
    }

    public Settings build() {
        return Settings.load("rest", new SettingsSources(null, Map.of(), values));
    }
}
