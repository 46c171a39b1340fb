package org.scrapycluster.kafkamonitor.tool;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonInputException;

/**
 * Feeds JSON lines, one request a line: each line is parsed and checked as {@code feed} checks one
 * request, a refused line (one that is not UTF-8 among them) is reported with its number and skipped, and
 * the rest are sent; a line longer than the JSON document limit is refused without being kept. Blank lines are skipped. Every {@value #PROGRESS_EVERY} lines a progress line goes to the error stream; at the end one
 * summary line goes to the output. It stops at the first send Kafka does not answer in time.
 */
final class BulkFeed {

    /** How many lines pass between two progress lines. */
    static final int PROGRESS_EVERY = 1000;
    /** How many sends may wait for Kafka's acknowledgement before the next line is read. */
    private static final int IN_FLIGHT = 1000;

    private final Json json;
    private final Function<JsonNode, List<String>> problems;
    private final BiFunction<String, byte[], Future<?>> send;
    private final String topic;
    private final PrintWriter out;
    private final PrintWriter err;

    /**
     * @param json     parses each line, within the JSON limits
     * @param problems why a request would be refused, empty when it would be taken
     * @param send     sends one message to a topic
     * @param topic    where requests go
     */
    BulkFeed(Json json, Function<JsonNode, List<String>> problems, BiFunction<String, byte[], Future<?>> send, String topic,
            PrintWriter out, PrintWriter err) {
        this.json = json;
        this.problems = problems;
        this.send = send;
        this.topic = topic;
        this.out = out;
        this.err = err;
    }

    /**
     * Feeds every line of {@code input}, waiting up to {@code timeout} for each acknowledgement. Once Kafka has not
     * answered a send within {@code timeout}, it stops reading: with Kafka away every further line would wait as long.
     *
     * @return whether every non-blank line was valid and acknowledged
     */
    boolean feed(InputStream input, Duration timeout) throws IOException {
        JsonLines lines = new JsonLines(input, json.maxDocumentBytes());
        List<Pending> pending = new ArrayList<>();
        long number = 0;
        long refused = 0;
        long failed = 0;
        long sent = 0;
        boolean unanswered = false;
        JsonLines.Line line;
        // once Kafka left a line unanswered, no other is read: from a terminal or a pipe, reading one more would wait for it
        while (!unanswered && (line = lines.next()) != null) {
            number++;
            if (line.tooLong() || line.bytes().length > 0) {
                List<String> why = check(line);
                if (why.isEmpty()) {
                    Future<?> sending = send.apply(topic, line.bytes());
                    pending.add(new Pending(number, sending));
                    if (pending.size() >= IN_FLIGHT || unanswered(sending)) {
                        Awaited awaited = await(pending, timeout);
                        failed += awaited.failed();
                        unanswered = awaited.unanswered();
                        sent += pending.size();
                        pending.clear();
                    }
                } else {
                    refused++;
                    for (String reason : why) {
                        err.println("line " + number + ": " + reason);
                    }
                }
            }
            // After the line is handled, so that the counts include it.
            if (number % PROGRESS_EVERY == 0) {
                err.println("feed: " + number + " lines read, " + (sent + pending.size()) + " sent, " + refused + " refused");
                err.flush();
            }
        }
        Awaited awaited = await(pending, timeout);
        failed += awaited.failed();
        sent += pending.size();
        if (unanswered || awaited.unanswered()) {
            // how long it waited is the line's own failure's to say: the producer gives up waiting for the topic sooner
            err.println("Stopped after line " + number + ": Kafka did not answer it; the lines after it were not read");
        }
        out.println("Fed " + (sent - failed) + " of " + (sent + refused) + " requests to Kafka topic " + topic + "; "
                + refused + " refused, " + failed + " not acknowledged");
        return refused == 0 && failed == 0;
    }

    private List<String> check(JsonLines.Line line) {
        if (line.tooLong()) {
            return List.of("not read: its " + line.length() + " bytes are more than the JSON document limit of "
                    + json.maxDocumentBytes() + " bytes (JSON_MAX_DOCUMENT_BYTES)");
        }
        JsonNode request;
        try {
            request = json.readTree(line.bytes());
        } catch (JsonInputException e) {
            return List.of("JSON failed to parse: " + e.getMessage());
        }
        return problems.apply(request);
    }

    /** Waits for each send; reports and counts those that failed, and tells whether Kafka left one unanswered. */
    private Awaited await(List<Pending> pending, Duration timeout) {
        long failed = 0;
        boolean unanswered = false;
        for (Pending each : pending) {
            try {
                each.send().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                failed++;
                unanswered |= kafkaDidNotAnswer(e.getCause());
                err.println("line " + each.line() + ": not sent: " + KafkaFailure.reason(e.getCause()));
            } catch (TimeoutException e) {
                failed++;
                unanswered = true;
                err.println("line " + each.line() + ": not sent: no acknowledgement within " + timeout.toSeconds() + " s");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failed++;
                err.println("line " + each.line() + ": not sent: interrupted");
            }
        }
        return new Awaited(failed, unanswered);
    }

    /** Whether a finished send failed because Kafka did not answer in time. */
    private static boolean unanswered(Future<?> send) {
        return send.state() == Future.State.FAILED && kafkaDidNotAnswer(send.exceptionNow());
    }

    /**
     * Whether a send failed with the producer's own timeout (its wait for metadata or for an acknowledgement): Kafka did not
     * answer, whatever the message says of the topic.
     */
    static boolean kafkaDidNotAnswer(Throwable failure) {
        return failure instanceof org.apache.kafka.common.errors.TimeoutException;
    }

    private record Awaited(long failed, boolean unanswered) {
    }

    private record Pending(long line, Future<?> send) {
    }
}
