package org.scrapycluster.common.kafka;

import java.util.Optional;
import java.util.regex.Pattern;

import org.scrapycluster.common.settings.Settings;

/**
 * The cluster's topic names (docs/compatibility.md §1.1) under one prefix ({@code demo} by default):
 * {@code demo.incoming}, {@code demo.crawled_firehose}, {@code demo.crawled_<appid>},
 * {@code demo.outbound_firehose}, {@code demo.outbound_<appid>}, and our
 * {@code demo.incoming_rejected} for requests that failed validation.
 */
public record Topics(String prefix, String incoming) {

    /** The longest topic name Kafka takes. */
    private static final int MAX_LENGTH = 249;
    private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]{1," + MAX_LENGTH + "}");

    public Topics {
        requireLegal(prefix + ".x", "prefix \"" + prefix + "\"");
        requireLegal(incoming, "incoming topic \"" + incoming + "\"");
    }

    /** Topics under {@code prefix}, with requests arriving on {@code <prefix>.incoming}. */
    public static Topics withPrefix(String prefix) {
        return new Topics(prefix, prefix + ".incoming");
    }

    /**
     * The topics of a service: the prefix from {@code KAFKA_TOPIC_PREFIX}, the incoming topic
     * from {@code KAFKA_INCOMING_TOPIC} (Kafka monitor) or {@code KAFKA_PRODUCER_TOPIC} (REST)
     * where the service has one.
     */
    public static Topics from(Settings settings) {
        String prefix = settings.getString("KAFKA_TOPIC_PREFIX");
        if (!isLegal(prefix + ".x")) {
            throw settings.invalid("KAFKA_TOPIC_PREFIX", "is '" + prefix + "', which cannot begin a Kafka topic name: give 1 to "
                    + (MAX_LENGTH - 2) + " letters, digits, '.', '_' or '-'");
        }
        for (String name : new String[] {"KAFKA_INCOMING_TOPIC", "KAFKA_PRODUCER_TOPIC"}) {
            if (settings.has(name)) {
                String incoming = settings.getString(name);
                if (!isLegal(incoming)) {
                    throw settings.invalid(name, "is '" + incoming + "', which is not a Kafka topic name: give 1 to " + MAX_LENGTH
                            + " letters, digits, '.', '_' or '-'");
                }
                return new Topics(prefix, incoming);
            }
        }
        return withPrefix(prefix);
    }

    public String incomingRejected() {
        return prefix + ".incoming_rejected";
    }

    public String crawledFirehose() {
        return prefix + ".crawled_firehose";
    }

    /** {@code <prefix>.crawled_<appid>}; fails for an appid that cannot be part of a topic name. */
    public String crawled(String appid) {
        return perApp("crawled_", appid);
    }

    public String outboundFirehose() {
        return prefix + ".outbound_firehose";
    }

    /** {@code <prefix>.outbound_<appid>}; fails for an appid that cannot be part of a topic name. */
    public String outbound(String appid) {
        return perApp("outbound_", appid);
    }

    /**
     * {@code <prefix>.outbound_<appid>} when Kafka can take that name: the appid's characters can be part of a
     * topic name, and the whole name is at most 249 characters. A legal appid can still make too long a name under
     * a long prefix; {@link #outbound(String)} fails for it.
     */
    public Optional<String> outboundIfLegal(String appid) {
        return isLegalAppid(appid) && isLegal(prefix + ".outbound_" + appid) ? Optional.of(outbound(appid)) : Optional.empty();
    }

    /** True when {@code appid} can be part of a topic name (letters, digits, '.', '_' and '-'). */
    public static boolean isLegalAppid(String appid) {
        return appid != null && LEGAL.matcher(appid).matches();
    }

    private String perApp(String kind, String appid) {
        if (!isLegalAppid(appid)) {
            throw new IllegalArgumentException("appid \"" + appid + "\" cannot be part of a Kafka topic name;"
                    + " only letters, digits, '.', '_' and '-' can");
        }
        String topic = prefix + "." + kind + appid;
        requireLegal(topic, "topic \"" + topic + "\"");
        return topic;
    }

    private static boolean isLegal(String topic) {
        return LEGAL.matcher(topic).matches();
    }

    private static void requireLegal(String topic, String what) {
        if (!isLegal(topic)) {
            throw new IllegalArgumentException(what + " is not a legal Kafka topic name");
        }
    }
}
