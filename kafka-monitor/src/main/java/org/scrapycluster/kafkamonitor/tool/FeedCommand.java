package org.scrapycluster.kafkamonitor.tool;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.scrapycluster.common.cli.ClusterCommand;
import org.scrapycluster.common.cli.SettingsOptions;
import org.scrapycluster.common.file.UnreadableFile;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonInputException;
import org.scrapycluster.common.json.JsonLimits;
import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.kafka.SendTimeouts;
import org.scrapycluster.common.logging.Logging;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.kafkamonitor.dispatch.Match;
import org.scrapycluster.kafkamonitor.dispatch.PluginSet;
import org.scrapycluster.kafkamonitor.dispatch.RankedPlugin;
import org.scrapycluster.kafkamonitor.plugin.Handling;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code scrapy-cluster feed '<json>'} (docs/compatibility.md §2.7): checks the request against the same
 * plugins and schemas as the Kafka monitor and prints every reason it would be rejected (exit
 * status 1), or sends it to {@code KAFKA_INCOMING_TOPIC} and waits up to {@code KAFKA_FEED_TIMEOUT}
 * seconds, the wait for the topic's metadata included, for Kafka to acknowledge it (exit status 0,
 * or 1 with the reason). Text that is not JSON is refused either way; {@code --no-validate} sends
 * any JSON as it is, as the original does.
 * {@code feed -} and {@code feed --file F} do the same for every line of JSON lines ({@link BulkFeed}).
 */
@Command(name = "feed", mixinStandardHelpOptions = true,
        description = {"Validate requests and send them to the Kafka monitor's incoming topic.",
                "One request given as JSON, or with '-' or --file every line of JSON from standard input or a file (bad lines are reported by number and skipped).",
                "Exit status 0 when Kafka acknowledged everything, 1 when something is not valid JSON, would be rejected, or could not be sent."})
public final class FeedCommand implements ClusterCommand, Callable<Integer> {

    @Mixin
    SettingsOptions options;

    @Parameters(paramLabel = "JSON", arity = "0..1",
            description = "The request, e.g. '{\"url\":\"https://example.com/\",\"appid\":\"testapp\",\"crawlid\":\"abc123\"}'; '-' reads JSON lines from standard input.")
    String request;

    @Option(names = "--file", paramLabel = "FILE", description = "Read JSON lines (one request a line) from FILE.")
    Path file;

    @Option(names = "--no-validate", description = "Send the JSON without checking it against the request schemas first.")
    boolean noValidate;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (file != null && request != null) {
            throw new ParameterException(spec.commandLine(), "Give a JSON request, '-' for standard input, or --file FILE, not two of them");
        }
        Settings settings = options.loadForTool("kafka-monitor");
        Logging.configureTool(settings, "feed");
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Json json = new Json(JsonLimits.from(settings));
        Duration timeout = new KafkaClients(settings).feedTimeout();
        if (file != null || "-".equals(request)) {
            return bulk(settings, json, timeout, out, err);
        }
        if (request == null) {
            throw new ParameterException(spec.commandLine(), "Give a JSON request, '-' for standard input, or --file FILE");
        }
        JsonNode parsed;
        try {
            parsed = json.readTree(request.getBytes(StandardCharsets.UTF_8));
        } catch (JsonInputException e) {
            err.println("JSON failed to parse: " + e.getMessage());
            return 1;
        }
        if (!noValidate) {
            List<String> problems = problems(PluginSet.load(settings), parsed);
            if (!problems.isEmpty()) {
                problems.forEach(err::println);
                return 1;
            }
        }
        String topic = settings.getString("KAFKA_INCOMING_TOPIC");
        Producer<String, byte[]> producer = null;
        long started = System.nanoTime();
        try {
            producer = new KafkaProducer<>(producerProperties(settings, timeout), new StringSerializer(), new ByteArraySerializer());
            long deadline = started + timeout.toNanos();
            Future<RecordMetadata> sent = producer.send(new ProducerRecord<>(topic, json.writeBytes(parsed)));
            sent.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            out.println("Successfully fed item to Kafka topic " + topic);
            return 0;
        } catch (ExecutionException e) {
            err.println("Failed to feed item into Kafka topic " + topic + ": "
                    + (BulkFeed.kafkaDidNotAnswer(e.getCause())
                            ? "no answer from Kafka at " + KafkaClients.bootstrapServers(settings) + " after "
                                    + String.format(Locale.ROOT, "%.1f", (System.nanoTime() - started) / 1e9) + " s ("
                                    + e.getCause().getMessage() + ")"
                            : KafkaFailure.reason(e.getCause())));
        } catch (TimeoutException e) {
            err.println("Failed to feed item into Kafka topic " + topic + ": no acknowledgement from "
                    + KafkaClients.bootstrapServers(settings) + " within " + timeout.toSeconds() + " s");
        } catch (KafkaException e) {
            err.println("Failed to feed item into Kafka topic " + topic + ": " + KafkaFailure.reason(e));
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

    private Integer bulk(Settings settings, Json json, Duration timeout, PrintWriter out, PrintWriter err) {
        PluginSet plugins = noValidate ? null : PluginSet.load(settings);
        String topic = settings.getString("KAFKA_INCOMING_TOPIC");
        try (InputStream lines = file != null ? Files.newInputStream(file) : System.in;
                Producer<String, byte[]> producer = new KafkaProducer<>(producerProperties(settings, timeout), new StringSerializer(),
                        new ByteArraySerializer())) {
            BulkFeed feed = new BulkFeed(json, request -> plugins == null ? List.of() : problems(plugins, request),
                    (to, bytes) -> producer.send(new ProducerRecord<>(to, bytes)), topic, out, err);
            return feed.feed(lines, timeout) ? 0 : 1;
        } catch (IOException e) {
            err.println("Cannot read " + (file != null ? file : "standard input") + ": " + UnreadableFile.reason(e));
            return 1;
        } catch (KafkaException e) {
            err.println("Failed to feed items into Kafka topic " + topic + ": " + KafkaFailure.reason(e));
            return 1;
        }
    }

    /** Why a Kafka monitor with {@code plugins} would refuse {@code request}, line by line; empty when it would take it. */
    static List<String> problems(PluginSet plugins, JsonNode request) {
        List<String> problems = new ArrayList<>();
        Match match = plugins.match(request);
        if (match instanceof Match.Unmatched unmatched) {
            problems.add("Invalid request, not sent: it matches no request schema (closest: " + unmatched.closestSchema() + ")");
            unmatched.violations().listed().forEach(detail -> problems.add("  " + detail));
            return problems;
        }
        Match.Matched matched = (Match.Matched) match;
        ObjectNode copy = matched.request().deepCopy();
        copy.put("ts", 0);
        Handling handling = switch (matched.plugin().handle(copy)) {
            case RankedPlugin.Answer.Handled handled -> handled.handling();
            case RankedPlugin.Answer.Failed failed -> matched.plugin().failedOn(failed.problem()); // as the monitor refuses it
        };
        if (handling instanceof Handling.Refuse refuse) {
            problems.add("Invalid " + matched.plugin().schemaName() + " request, not sent: " + refuse.reason());
            refuse.details().forEach(detail -> problems.add("  " + detail));
        }
        return problems;
    }

    /** The producer settings, with its waits for a record together within the feed timeout ({@link SendTimeouts}). */
    static Properties producerProperties(Settings settings, Duration timeout) {
        Properties properties = new KafkaClients(settings).producerProperties(timeout);
        properties.put(ProducerConfig.RETRIES_CONFIG, "3");
        return properties;
    }
}
