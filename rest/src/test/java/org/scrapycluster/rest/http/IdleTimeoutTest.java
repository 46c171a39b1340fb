package org.scrapycluster.rest.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.Test;

/** The idle timeout of a connection, with the event loop's clock moved by hand. */
class IdleTimeoutTest {

    private static final Duration IDLE = Duration.ofMinutes(2);

    private final PipelineLimit requests = new PipelineLimit(16, 1_048_576,
            DistributionSummary.builder("held").register(new SimpleMeterRegistry()));
    private final EmbeddedChannel channel = new EmbeddedChannel(new IdleTimeout(IDLE, requests), requests);

    private void idleFor(Duration time) {
        channel.advanceTimeBy(time.toMillis(), TimeUnit.MILLISECONDS);
        channel.runPendingTasks();
    }

    @Test
    void aConnectionOwedNoAnswerIsClosedOnceIdle() {
        idleFor(IDLE.plusSeconds(1));

        assertFalse(channel.isOpen());
    }

    @Test
    void aConnectionWhoseRequestIsStillBeingAnsweredIsNotClosedThenIsOnceAnsweredAndIdle() {
        channel.writeInbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/feed"));

        idleFor(IDLE.multipliedBy(3));
        assertTrue(channel.isOpen(), "the gateway, not the client, is behind");

        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        idleFor(IDLE.plusSeconds(1));
        assertFalse(channel.isOpen());
    }
}
