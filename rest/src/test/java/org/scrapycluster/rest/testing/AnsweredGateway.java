package org.scrapycluster.rest.testing;

import java.util.function.UnaryOperator;

import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.embedded.EmbeddedStack;

/**
 * A gateway on the shared stack, up and GREEN, with an {@link OutboundResponder} answering on its
 * topics and a connection to the stack's Redis to look at what it parks.
 */
public final class AnsweredGateway implements AutoCloseable {

    private final GatewaySettings settings;
    private final OutboundResponder responder;
    private final RunningGateway gateway;
    private final RedisConnection redis;

    private AnsweredGateway(GatewaySettings settings, OutboundResponder responder, RunningGateway gateway, RedisConnection redis) {
        this.settings = settings;
        this.responder = responder;
        this.gateway = gateway;
        this.redis = redis;
    }

    /** Starts one with the settings {@code tuning} makes of the defaults for {@code stack}. */
    public static AnsweredGateway start(EmbeddedStack stack, UnaryOperator<GatewaySettings> tuning) {
        GatewaySettings settings = tuning.apply(GatewaySettings.forStack(stack));
        OutboundResponder responder = new OutboundResponder(settings);
        try {
            RunningGateway gateway = RunningGateway.start(settings.build()).awaitGreen();
            return new AnsweredGateway(settings, responder, gateway, RedisConnection.open(RedisEndpoint.of("127.0.0.1", stack.redisPort())));
        } catch (RuntimeException e) {
            responder.close();
            throw e;
        }
    }

    public GatewaySettings settings() {
        return settings;
    }

    public OutboundResponder responder() {
        return responder;
    }

    public RunningGateway gateway() {
        return gateway;
    }

    public RedisConnection redis() {
        return redis;
    }

    @Override
    public void close() {
        gateway.close();
        responder.close();
        redis.close();
    }
}
