package org.scrapycluster.kafkamonitor.tool;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.scrapycluster.common.cli.ClusterCommand;
import org.scrapycluster.common.cli.SettingsOptions;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonInputException;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.logging.Logging;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.kafkamonitor.dispatch.Match;
import org.scrapycluster.kafkamonitor.dispatch.PluginSet;
import org.scrapycluster.kafkamonitor.plugin.Handling;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code scrapy-cluster feed '<json>'} (docs/compatibility.md §2.7): checks the request against the same
 * plugins and schemas as the Kafka monitor and prints every reason it would be rejected (exit
 * status 1), or sends it to {@code KAFKA_INCOMING_TOPIC} and waits up to {@code KAFKA_FEED_TIMEOUT}
 * seconds for Kafka to acknowledge it (exit status 0, or 1 with the reason). Text that is not JSON
 * is refused either way; {@code --no-validate} sends any JSON as it is, as the original does.
 */
@Command(name = "feed", mixinStandardHelpOptions = true,
        description = {"Validate one JSON request and send it to the Kafka monitor's incoming topic.",
                "Exit status 0 when Kafka acknowledged it, 1 when it is not valid JSON, would be rejected, or could not be sent."})
public final class FeedCommand implements ClusterCommand, Callable<Integer> {

    @Mixin
    SettingsOptions options;

    @Parameters(paramLabel = "JSON", description = "The request, e.g. '{\"url\":\"https://example.com/\",\"appid\":\"testapp\",\"crawlid\":\"abc123\"}'.")
    String request;

    @Option(names = "--no-validate", description = "Send the JSON without checking it against the request schemas first.")
    boolean noValidate;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Settings settings = options.load("kafka-monitor");
        Logging.configure(settings);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Json json = new Json(JsonLimits.from(settings));
        JsonNode parsed;
        try {
            parsed = json.readTree(request.getBytes(StandardCharsets.UTF_8));
        } catch (JsonInputException e) {
            err.println("JSON failed to parse: " + e.getMessage());
            return 1;
        }
        if (!noValidate && !valid(settings, parsed, err)) {
            return 1;
        }
        String topic = settings.getString("KAFKA_INCOMING_TOPIC");
        Duration timeout = settings.getSeconds("KAFKA_FEED_TIMEOUT");
        if (timeout.toMillis() < 1) {
            throw settings.invalid("KAFKA_FEED_TIMEOUT", "must be positive");
        }
        Producer<String, byte[]> producer = null;
        try {
            producer = new KafkaProducer<>(producerProperties(settings, timeout), new StringSerializer(), new ByteArraySerializer());
            producer.send(new ProducerRecord<>(topic, json.writeBytes(parsed))).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            out.println("Successfully fed item to Kafka topic " + topic);
            return 0;
        } catch (ExecutionException e) {
            err.println("Failed to feed item into Kafka topic " + topic + ": " + e.getCause().getMessage());
        } catch (TimeoutException e) {
            err.println("Failed to feed item into Kafka topic " + topic + ": no acknowledgement from "
                    + String.join(",", settings.getStringList("KAFKA_HOSTS")) + " within " + timeout.toSeconds() + " s");
        } catch (KafkaException e) {
            err.println("Failed to feed item into Kafka topic " + topic + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("Failed to feed item into Kafka topic " + topic + ": interrupted");
        } finally {
            if (producer != null) {
                producer.close(Duration.ZERO);
            }
        }
        return 1;
    }

    /** Whether a Kafka monitor with {@code settings} would accept {@code request}; prints why not. */
    private static boolean valid(Settings settings, JsonNode request, PrintWriter err) {
        Match match = PluginSet.load(settings).match(request);
        if (match instanceof Match.Unmatched unmatched) {
            err.println("Invalid request, not sent: it matches no request schema (closest: " + unmatched.closestSchema() + ")");
            unmatched.details().forEach(detail -> err.println("  " + detail));
            return false;
        }
        Match.Matched matched = (Match.Matched) match;
        ObjectNode copy = matched.request().deepCopy();
        copy.put("ts", 0);
        if (matched.plugin().plugin().handle(copy) instanceof Handling.Refuse refuse) {
            err.println("Invalid " + matched.plugin().schemaName() + " request, not sent: " + refuse.reason());
            refuse.details().forEach(detail -> err.println("  " + detail));
            return false;
        }
        return true;
    }

    /** The producer settings, with every wait bounded by the feed timeout. */
    private static Properties producerProperties(Settings settings, Duration timeout) {
        Properties properties = new KafkaClients(settings).producerProperties();
        long millis = timeout.toMillis();
        long linger = settings.getLong("KAFKA_PRODUCER_BATCH_LINGER_MS");
        properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(millis));
        properties.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(millis));
        properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Long.toString(millis + linger));
        properties.put(ProducerConfig.RETRIES_CONFIG, "3");
        return properties;
    }
}
