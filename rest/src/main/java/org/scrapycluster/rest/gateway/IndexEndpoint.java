package org.scrapycluster.rest.gateway;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.rest.http.Endpoint;
import org.scrapycluster.rest.http.Envelope;
import org.scrapycluster.rest.http.HttpAnswer;
import org.scrapycluster.rest.http.HttpCall;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET} or {@code POST /} (docs/compatibility.md §6.3), outside the envelope:
 * {@code {"kafka_connected", "redis_connected", "uptime_sec", "my_id", "node_health"}}, where
 * the health is GREEN with both connected, YELLOW with one, RED with none.
 */
final class IndexEndpoint implements Endpoint {

    private static final Logger LOG = LoggerFactory.getLogger(IndexEndpoint.class);

    private final Envelope envelope;
    private final BooleanSupplier kafka;
    private final BooleanSupplier redis;
    private final String myId;
    private final Clock clock;
    private final Instant started;

    IndexEndpoint(Envelope envelope, BooleanSupplier kafka, BooleanSupplier redis, String myId, Clock clock) {
        this.envelope = envelope;
        this.kafka = kafka;
        this.redis = redis;
        this.myId = myId;
        this.clock = clock;
        this.started = clock.instant();
    }

    @Override
    public HttpAnswer answer(HttpCall call) {
        LOG.info("'index' endpoint called");
        boolean kafkaConnected = kafka.getAsBoolean();
        boolean redisConnected = redis.getAsBoolean();
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("kafka_connected", kafkaConnected);
        body.put("redis_connected", redisConnected);
        body.put("uptime_sec", Duration.between(started, clock.instant()).toSeconds());
        body.put("my_id", myId);
        body.put("node_health", health(kafkaConnected, redisConnected));
        return envelope.json(200, body);
    }

    /** GREEN, YELLOW or RED, by how many of the two are connected. */
    static String health(boolean kafkaConnected, boolean redisConnected) {
        if (kafkaConnected && redisConnected) {
            return "GREEN";
        }
        return kafkaConnected || redisConnected ? "YELLOW" : "RED";
    }
}
