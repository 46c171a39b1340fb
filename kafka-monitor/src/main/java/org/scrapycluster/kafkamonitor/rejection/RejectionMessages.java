package org.scrapycluster.kafkamonitor.rejection;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonInputException;
import org.scrapycluster.common.kafka.Topics;
import org.scrapycluster.common.request.LoggedFields;
import org.scrapycluster.common.settings.Settings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka messages that tell about a rejected record (docs/architecture.md, guarantee 5), each switched on by a
 * setting:
 *
 * <ul>
 *   <li>{@code PUBLISH_REJECTED}: to {@code <prefix>.incoming_rejected},
 *       {@code {"reason","schema","violations","record","record_bytes","topic","partition","offset","server_time"}}
 *       with the record's text cut to {@code REJECTED_RECORD_MAX_CHARS} characters;</li>
 *   <li>{@code PUBLISH_ERROR_ANSWERS}: when the record is a JSON object with string {@code appid} and
 *       {@code uuid}, to {@code <prefix>.outbound_firehose}, {@code {"appid","uuid","server_time","error":{"message","details"}}},
 *       the answer a waiting client or the REST gateway correlates by uuid. With {@code KAFKA_APPID_TOPICS} it also
 *       goes to {@code <prefix>.outbound_<appid>} when Kafka can take that name; one whose appid makes a name Kafka
 *       cannot take (more than 249 characters under the prefix) goes to the firehose only, with a warning, counted in
 *       {@code kafka_monitor_answers_firehose_only_total} (docs/api.md, "Rejected records and error answers").</li>
 * </ul>
 */
public final class RejectionMessages {

    private static final Logger LOG = LoggerFactory.getLogger(RejectionMessages.class);
    private static final int MAX_QUOTED_APPID = 60;

    private final Topics topics;
    private final Json json;
    private final Clock clock;
    private final boolean rejectedTopic;
    private final boolean errorAnswers;
    private final boolean appidTopics;
    private final int maxRecordChars;
    private final Counter firehoseOnly;

    /**
     * @param clock  the time of each message, its {@code server_time} and its Kafka record's: Redis's, as the cluster's
     *               hosts share it (docs/operations.md, "Clocks")
     * @param meters where {@code kafka_monitor_answers_firehose_only_total} is counted
     */
    public RejectionMessages(Settings settings, Json json, Clock clock, MeterRegistry meters) {
        this.topics = Topics.from(settings);
        this.json = json;
        this.clock = clock;
        this.rejectedTopic = settings.getBoolean("PUBLISH_REJECTED");
        this.errorAnswers = settings.getBoolean("PUBLISH_ERROR_ANSWERS");
        this.appidTopics = settings.getBoolean("KAFKA_APPID_TOPICS");
        this.maxRecordChars = maxRecordChars(settings);
        this.firehoseOnly = Counter.builder("kafka.monitor.answers.firehose.only")
                .description("Error answers sent to the firehose only: their appid makes an app topic name Kafka cannot take")
                .register(meters);
    }

    /**
     * The most characters of a rejected record published ({@code REJECTED_RECORD_MAX_CHARS}).
     *
     * @throws org.scrapycluster.common.settings.SettingsException when it is negative
     */
    public static int maxRecordChars(Settings settings) {
        int chars = settings.getInt("REJECTED_RECORD_MAX_CHARS");
        if (chars < 0) {
            throw settings.invalid("REJECTED_RECORD_MAX_CHARS", "cannot be negative");
        }
        return chars;
    }

    /** What to publish for the record at {@code topic}/{@code partition}/{@code offset} holding {@code value}. */
    public List<ProducerRecord<String, byte[]>> of(String topic, int partition, long offset, byte[] value, Rejection rejection) {
        List<ProducerRecord<String, byte[]>> messages = new ArrayList<>(3);
        long now = clock.millis();
        long serverTime = now / 1000;
        if (rejectedTopic) {
            messages.add(stamped(topics.incomingRejected(), now,
                    json.writeBytes(rejectedRecord(topic, partition, offset, value, rejection, serverTime))));
        }
        if (errorAnswers) {
            rejection.recipient().ifPresent(recipient -> {
                byte[] answer = json.writeBytes(errorAnswer(recipient, rejection, serverTime));
                messages.add(stamped(topics.outboundFirehose(), now, answer));
                if (appidTopics) {
                    appTopic(recipient.appid()).ifPresent(appTopic -> messages.add(stamped(appTopic, now, answer)));
                }
            });
        }
        return messages;
    }

    /** A record stamped with the monitor's clock, not the producer's: the broker refuses one stamped an hour ahead of its own. */
    private static ProducerRecord<String, byte[]> stamped(String topic, long millis, byte[] value) {
        return new ProducerRecord<>(topic, null, millis, null, value);
    }

    /** The app's own topic for an answer, when Kafka can take its name; said and counted when it cannot. */
    private Optional<String> appTopic(String appid) {
        Optional<String> topic = topics.outboundIfLegal(appid);
        if (topic.isEmpty()) {
            firehoseOnly.increment();
            String shown = appid.length() > MAX_QUOTED_APPID ? appid.substring(0, MAX_QUOTED_APPID) + "…" : appid;
            LOG.atWarn().addKeyValue("appid", shown).addKeyValue("appid_chars", appid.length())
                    .log("Error answer sent to " + topics.outboundFirehose() + " only: the appid cannot name a Kafka topic"
                            + " (letters, digits, '.', '_' and '-', at most 249 characters with the prefix)");
        }
        return topic;
    }

    /**
     * The text of a record as its log record shows it: as its rejected-topic entry does, but a request read as JSON
     * that holds a credential is shown as {@link LoggedFields} shows it, written out again without the credential
     * (docs/security.md). Such a record is read again for that, within the limits it was read within once already; one
     * whose text cannot hold a credential is not. One that did not read as JSON has the credentials found in its text
     * redacted ({@link LoggedFields#redactedText}).
     */
    public String logged(byte[] value, Rejection rejection) {
        if (!rejection.parsed()) {
            // a record without a value (a tombstone) is unread too
            return value != null && LoggedFields.mayHoldCredential(value) ? LoggedFields.redactedText(preview(value)) : preview(value);
        }
        if (LoggedFields.mayHoldCredential(value)) {
            try {
                JsonNode request = json.readTree(value);
                JsonNode shown = LoggedFields.shown(request);
                if (shown != request) {
                    return RecordText.cut(json.writeString(shown), maxRecordChars);
                }
                if (!request.isObject()) { // an array of requests, say: their cookies are in the text
                    return LoggedFields.redactedText(preview(value));
                }
            } catch (JsonInputException e) {
                // read once already, so not expected; shown as the rejected topic shows it
            }
        }
        return preview(value);
    }

    /** The text of a record as its rejected-topic entry shows it. */
    private String preview(byte[] value) {
        return RecordText.preview(value, maxRecordChars);
    }

    private ObjectNode rejectedRecord(String topic, int partition, long offset, byte[] value, Rejection rejection, long serverTime) {
        ObjectNode record = JsonNodeFactory.instance.objectNode();
        record.put("reason", rejection.reason());
        rejection.schema().ifPresent(schema -> record.put("schema", schema));
        record.set("violations", details(rejection));
        record.put("record", preview(value));
        record.put("record_bytes", value == null ? 0 : value.length);
        record.put("topic", topic);
        record.put("partition", partition);
        record.put("offset", offset);
        record.put("server_time", serverTime);
        return record;
    }

    private static ObjectNode errorAnswer(Rejection.Recipient recipient, Rejection rejection, long serverTime) {
        ObjectNode answer = JsonNodeFactory.instance.objectNode();
        answer.put("appid", recipient.appid());
        answer.put("uuid", recipient.uuid());
        answer.put("server_time", serverTime);
        ObjectNode error = answer.putObject("error");
        error.put("message", rejection.reason());
        error.set("details", details(rejection));
        return answer;
    }

    private static ArrayNode details(Rejection rejection) {
        ArrayNode details = JsonNodeFactory.instance.arrayNode();
        rejection.details().forEach(details::add);
        return details;
    }
}
