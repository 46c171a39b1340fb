package org.scrapycluster.rest.poll;

import java.time.Duration;
import java.util.Optional;

import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.scrapycluster.common.json.UnicodeText;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.rest.link.RedisLink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The answers kept in Redis for {@code /poll}: {@code SET rest:poll:<uuid> <answer JSON> EX <ttl>}
 * (the original sets no TTL, so that keys of answers nobody polls for stay forever; a TTL of 0
 * does the same here). Parking does not wait for Redis; an answer Redis does not take is counted
 * in {@code rest_answers_total{route="unparked"}} and the outage logged once.
 */
public final class ParkedAnswers {

    private static final Logger LOG = LoggerFactory.getLogger(ParkedAnswers.class);
    private static final LuaScript TAKE = LuaScript.load("take_parked");

    private final RedisLink redis;
    private final Duration ttl;
    private final Counter parked;
    private final Counter unparked;
    private final OutageReporter outage = new OutageReporter(LOG, "Parking answers in Redis for /poll");

    /**
     * @param ttl how long a parked answer is kept; zero for ever
     */
    public ParkedAnswers(RedisLink redis, Duration ttl, MeterRegistry meters) {
        this.redis = redis;
        this.ttl = ttl;
        this.parked = answers(meters, "parked");
        this.unparked = answers(meters, "unparked");
    }

    /** The meter of answers read from the outbound topic that took {@code route}. */
    public static Counter answers(MeterRegistry meters, String route) {
        return Counter.builder("rest.answers").description("Answers read from the outbound topic, by what became of them")
                .tag("route", route).register(meters);
    }

    /**
     * Parks {@code answer} under {@code uuid}, in the background; {@code uuid} is Unicode text ({@link UnicodeText#whyNot}).
     *
     * @return false, parking nothing, when no {@code /poll} call could ask for {@code uuid} (empty, or longer than the
     *         poll schema takes: the error answer to a request refused for its uuid of 100,000 characters)
     */
    public boolean park(String uuid, String answer) {
        if (!PollEndpoint.askable(uuid)) {
            return false;
        }
        Optional<RedisConnection> connection = redis.connection();
        if (connection.isEmpty()) {
            unparked.increment();
            outage.failed(new RedisException("not connected"));
            return true;
        }
        SetArgs args = ttl.isZero() ? new SetArgs() : SetArgs.Builder.ex(ttl.getSeconds());
        connection.get().async().set(Keyspace.REST_POLL.fill(uuid), answer, args).whenComplete((ok, failure) -> {
            if (failure == null) {
                parked.increment();
                outage.succeeded();
            } else {
                unparked.increment();
                outage.failed(failure);
            }
        });
        return true;
    }

    /**
     * Takes the answer parked under {@code pollId}: reads it, then deletes it if it is still there ({@code take_parked}),
     * so that it is handed out once even to callers polling for it at the same moment. Nothing is deleted by a read that
     * failed, even one Redis runs later (stalled, it runs the calls it holds when it resumes); an answer read whose
     * delete failed is handed out all the same, rather than lost. {@code pollId} is Unicode text ({@link UnicodeText#whyNot}).
     *
     * @return the answer's text, or empty when there is none (or another caller took it)
     * @throws RedisException when Redis is not connected, or fails the read
     */
    public Optional<String> take(String pollId) {
        RedisConnection connection = redis.connection().orElseThrow(() -> new RedisException("not connected to Redis"));
        String key = Keyspace.REST_POLL.fill(pollId);
        String answer = connection.sync().get(key);
        if (answer == null) {
            return Optional.empty();
        }
        Long taken;
        try {
            taken = TAKE.call(connection, ScriptOutputType.INTEGER, new String[] {key}, LuaScript.sha1(answer));
        } catch (RedisException e) {
            LOG.atWarn().addKeyValue("poll_id", pollId).addKeyValue("error", String.valueOf(e))
                    .log("Handed out a parked answer whose deletion failed; it may be handed out again");
            return Optional.of(answer);
        }
        return taken == 1 ? Optional.of(answer) : Optional.empty();
    }
}
