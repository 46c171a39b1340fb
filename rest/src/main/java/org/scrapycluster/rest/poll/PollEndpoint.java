package org.scrapycluster.rest.poll;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisLoadingException;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.json.JsonInputException;
import org.scrapycluster.common.json.UnicodeText;
import org.scrapycluster.common.request.LoggedFields;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.request.RequestValidator;
import org.scrapycluster.common.request.SafetyChecks;
import org.scrapycluster.common.request.ValidationResult;
import org.scrapycluster.rest.http.Endpoint;
import org.scrapycluster.rest.http.Envelope;
import org.scrapycluster.rest.http.HttpAnswer;
import org.scrapycluster.rest.http.HttpCall;
import org.scrapycluster.rest.http.JsonBodies;
import org.scrapycluster.rest.http.Refusal;
import org.scrapycluster.rest.http.RefusedRequestException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /poll {"poll_id": "<uuid>"}} (docs/compatibility.md §6.5): the answer parked for that uuid,
 * once; 400 for a {@code poll_id} that is not Unicode text ({@link UnicodeText#whyNot}); 404 {@code Could not find matching poll_id} when there is none (not answered yet, already
 * taken, or expired); 500 {@code Unable to connect to Redis} when Redis is away; 500
 * {@code Unparseable JSON Received from redis} when the stored text is not JSON (it is deleted); and when Redis refuses
 * the call, the gateway's 500 for anything unexpected, with Redis's words in the log.
 */
public final class PollEndpoint implements Endpoint {

    public static final String REDIS_DOWN = "Unable to connect to Redis";
    public static final String NOT_FOUND = "Could not find matching poll_id";
    public static final String UNPARSEABLE = "Unparseable JSON Received from redis";

    private static final Logger LOG = LoggerFactory.getLogger(PollEndpoint.class);
    private static final String SCHEMA = "poll_schema.json";

    /** The poll schema's checks: the same for every call, and for {@link #askable}. */
    private static final RequestValidator VALIDATOR = new RequestValidator(schema(), SafetyChecks.NONE);

    private final JsonBodies bodies;
    private final Json json;
    private final Envelope envelope;
    private final ParkedAnswers parked;

    public PollEndpoint(JsonBodies bodies, Json json, Envelope envelope, ParkedAnswers parked) {
        this.bodies = bodies;
        this.json = json;
        this.envelope = envelope;
        this.parked = parked;
    }

    /** Whether a {@code /poll} call can ask for {@code pollId}: the schema takes it (1 to 100 characters), and it is Unicode text. */
    static boolean askable(String pollId) {
        return UnicodeText.whyNot(pollId).isEmpty()
                && VALIDATOR.validate(JsonNodeFactory.instance.objectNode().put("poll_id", pollId)) instanceof ValidationResult.Valid;
    }

    @Override
    public HttpAnswer answer(HttpCall call) throws RefusedRequestException {
        JsonNode request = bodies.read(call);
        LOG.atInfo().addKeyValue("content", LoggedFields.text(request)).log("'poll' endpoint called");
        if (VALIDATOR.validate(request) instanceof ValidationResult.Invalid invalid) {
            throw new RefusedRequestException(Refusal.SCHEMA, invalid.reason());
        }
        String pollId = request.get("poll_id").asText();
        Optional<String> notUnicode = UnicodeText.whyNot(pollId);
        if (notUnicode.isPresent()) {
            throw new RefusedRequestException(Refusal.SCHEMA, "poll_id: is not Unicode text: " + notUnicode.get());
        }
        Optional<String> answer;
        try {
            answer = parked.take(pollId);
        } catch (RedisLoadingException | RedisBusyException e) {
            // there, but not answering yet (reading its data after a restart) or for now (a long script): as away
            return redisDown(e);
        } catch (RedisCommandExecutionException e) {
            // Redis is there and refused the call (a key of another type under the uuid's name, an ACL that denies the
            // script): not an outage, but the unexpected error the original answers for anything it did not foresee
            throw e;
        } catch (RedisException e) {
            return redisDown(e);
        }
        if (answer.isEmpty()) {
            return envelope.failure(404, NOT_FOUND);
        }
        try {
            return envelope.success(json.readTree(answer.get()));
        } catch (JsonInputException e) {
            LOG.atWarn().addKeyValue("poll_id", pollId).addKeyValue("error", e.getMessage()).log(UNPARSEABLE);
            return envelope.failure(500, UNPARSEABLE);
        }
    }

    private static RequestSchema schema() {
        try (InputStream in = PollEndpoint.class.getResourceAsStream(SCHEMA)) {
            if (in == null) {
                throw new IllegalStateException("the /poll schema " + SCHEMA + " is missing from the class path");
            }
            return RequestSchema.read("poll", in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the /poll schema", e);
        }
    }

    private HttpAnswer redisDown(RedisException e) {
        LOG.atWarn().addKeyValue("error", String.valueOf(e)).log("Cannot read parked answers: Redis unavailable");
        return envelope.failure(500, REDIS_DOWN);
    }
}
