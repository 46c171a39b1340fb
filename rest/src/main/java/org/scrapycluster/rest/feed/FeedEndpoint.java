package org.scrapycluster.rest.feed;

import java.time.Duration;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.scrapycluster.common.json.UnicodeText;
import org.scrapycluster.common.request.LoggedFields;
import org.scrapycluster.rest.http.Endpoint;
import org.scrapycluster.rest.http.Envelope;
import org.scrapycluster.rest.http.HttpAnswer;
import org.scrapycluster.rest.http.HttpCall;
import org.scrapycluster.rest.http.JsonBodies;
import org.scrapycluster.rest.http.Refusal;
import org.scrapycluster.rest.http.RefusedRequestException;
import org.scrapycluster.rest.link.KafkaLink;
import org.scrapycluster.rest.link.KafkaUnavailableException;
import org.scrapycluster.rest.link.OversizedRecordException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /feed} (docs/compatibility.md §6.4, with docs/compatibility.md W20's fixes): reads the JSON body, checks it
 * ({@link FeedValidation}), refuses a {@code uuid} that is not Unicode text (its answer would come
 * back under another uuid, {@link UnicodeText#whyNot}), registers the request's {@code uuid} when it has one, sends the body
 * as it came to the incoming topic and waits for Kafka's acknowledgement, then
 *
 * <ul>
 *   <li>without {@code uuid} (crawl requests): 200 with {@code data: null};</li>
 *   <li>with {@code uuid}: 200 with the answer as {@code data} when it comes within
 *       {@code WAIT_FOR_RESPONSE_TIME}, else 200 with {@code data: {"poll_id": "<uuid>"}}; the
 *       answer is then parked for {@code /poll} when it comes.</li>
 * </ul>
 *
 * <p>Kafka not reachable, or not acknowledging within {@code KAFKA_FEED_TIMEOUT}: 500
 * {@code Unable to connect to Kafka}. A request with a {@code uuid} while Kafka is reachable but its
 * answers cannot be read (no partition of the outbound topic is assigned to the gateway): 500
 * {@code Unable to read answers from Kafka}, before anything is sent; a crawl request is sent all the same.
 */
public final class FeedEndpoint implements Endpoint {

    public static final String KAFKA_DOWN = "Unable to connect to Kafka";
    public static final String ANSWERS_UNREADABLE = "Unable to read answers from Kafka";

    private static final Logger LOG = LoggerFactory.getLogger(FeedEndpoint.class);

    private final JsonBodies bodies;
    private final FeedValidation validation;
    private final Envelope envelope;
    private final KafkaLink kafka;
    private final String topic;
    private final PendingAnswers pending;
    private final Duration wait;
    private final Counter sent;
    private final Counter answered;
    private final Counter pollIds;
    private final Counter kafkaDown;
    private final Counter answersUnreadable;

    /**
     * @param topic the incoming topic ({@code KAFKA_PRODUCER_TOPIC})
     * @param wait  how long to wait for an answer ({@code WAIT_FOR_RESPONSE_TIME})
     */
    public FeedEndpoint(JsonBodies bodies, FeedValidation validation, Envelope envelope, KafkaLink kafka, String topic,
            PendingAnswers pending, Duration wait, MeterRegistry meters) {
        this.bodies = bodies;
        this.validation = validation;
        this.envelope = envelope;
        this.kafka = kafka;
        this.topic = topic;
        this.pending = pending;
        this.wait = wait;
        this.sent = outcome(meters, "sent");
        this.answered = outcome(meters, "answered");
        this.pollIds = outcome(meters, "poll_id");
        this.kafkaDown = outcome(meters, "kafka_unavailable");
        this.answersUnreadable = outcome(meters, "answers_unavailable");
        Gauge.builder("rest.feed.waiting", pending, PendingAnswers::size)
                .description("uuids callers of /feed wait for").register(meters);
    }

    @Override
    public HttpAnswer answer(HttpCall call) throws RefusedRequestException {
        JsonNode request = bodies.read(call);
        LOG.atInfo().addKeyValue("content", LoggedFields.text(request)).log("'feed' endpoint called");
        validation.check(request);
        JsonNode uuidField = request.get("uuid");
        String uuid = uuidField != null && uuidField.isTextual() ? answerable(uuidField.asText()) : null;
        if (uuid != null && kafka.reachable() && !kafka.readingAnswers()) {
            answersUnreadable.increment();
            String state = kafka.state();
            LOG.atError().addKeyValue("error", state).log("Feed refused: answers cannot be read from Kafka");
            return envelope.failure(500, ANSWERS_UNREADABLE, state);
        }
        PendingAnswers.Waiter waiter = uuid == null ? null : pending.register(uuid);
        boolean taken = false;
        try {
            kafka.send(topic, call.body());
            taken = true;
        } catch (OversizedRecordException e) {
            // within JSON_MAX_DOCUMENT_BYTES, but not within the producer's or the broker's record limit
            throw new RefusedRequestException(Refusal.TOO_LARGE, "Kafka takes no record this large: " + e.getMessage());
        } catch (KafkaUnavailableException e) {
            kafkaDown.increment();
            LOG.atError().addKeyValue("error", e.getMessage()).log("Feed refused: Kafka is not connected");
            return envelope.failure(500, KAFKA_DOWN);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the gateway is closing", e);
        } finally {
            if (!taken) {
                forget(waiter); // whatever failed, no answer comes: an answer under its uuid is parked for /poll
            }
        }
        if (waiter == null) {
            sent.increment();
            return envelope.success(null);
        }
        Optional<JsonNode> answer;
        try {
            answer = pending.await(waiter, wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the gateway is closing", e);
        }
        if (answer.isPresent()) {
            answered.increment();
            return envelope.success(answer.get());
        }
        pollIds.increment();
        LOG.atWarn().addKeyValue("uuid", waiter.uuid()).log("Did not receive response within timeout; answering with a poll_id");
        ObjectNode pollId = JsonNodeFactory.instance.objectNode();
        pollId.put("poll_id", waiter.uuid());
        return envelope.success(pollId);
    }

    /** Stops waiting for the answer of a request that was not sent; {@code waiter} null: none was awaited. */
    private void forget(PendingAnswers.Waiter waiter) {
        if (waiter != null) {
            pending.forget(waiter);
        }
    }

    /** {@code uuid}, refused when it is not Unicode text: its answer would come back under another uuid. */
    private static String answerable(String uuid) throws RefusedRequestException {
        Optional<String> notUnicode = UnicodeText.whyNot(uuid);
        if (notUnicode.isPresent()) {
            throw new RefusedRequestException(Refusal.SCHEMA, "uuid: is not Unicode text: " + notUnicode.get());
        }
        return uuid;
    }

    private static Counter outcome(MeterRegistry meters, String outcome) {
        return Counter.builder("rest.feed").description("Requests fed, by outcome").tag("outcome", outcome).register(meters);
    }
}
