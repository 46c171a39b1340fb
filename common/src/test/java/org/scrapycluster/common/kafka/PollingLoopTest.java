package org.scrapycluster.common.kafka;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class PollingLoopTest {

    private final PollingLoop loop = new PollingLoop();

    @Test
    void aStopIsAskedForOnce() {
        assertFalse(loop.stopping());
        assertDoesNotThrow(loop::check);
        assertTrue(loop.requestStop());
        assertFalse(loop.requestStop(), "the second request is not the first");
        assertTrue(loop.stopping());
        assertThrows(PollingLoop.Stopping.class, loop::check);
        assertThrows(PollingLoop.Stopping.class, () -> loop.pause(Duration.ZERO));
    }

    @Test
    void aThreadPausingForAnHourEndsAtOnceWhenStopped() throws Exception {
        CompletableFuture<Throwable> unwound = new CompletableFuture<>();
        Thread thread = Thread.ofPlatform().start(() -> {
            try {
                loop.pause(Duration.ofHours(1));
                unwound.complete(null);
            } catch (RuntimeException e) {
                unwound.complete(e);
            }
        });
        loop.requestStop();
        assertTrue(PollingLoop.awaitEnd(thread, null, Duration.ofMinutes(1)));
        assertEquals(PollingLoop.Stopping.class, unwound.get().getClass());
    }

    @Test
    void aClientIsCreatedAgainUntilKafkaTakesIt() {
        AtomicInteger attempts = new AtomicInteger();
        String client = loop.createClient("producer", () -> {
            if (attempts.incrementAndGet() < 3) {
                throw new KafkaException("no broker");
            }
            return "client";
        }, LoggerFactory.getLogger(PollingLoopTest.class));
        assertEquals("client", client);
        assertEquals(3, attempts.get());
    }

    @Test
    void noClientIsCreatedOnceStopped() {
        loop.requestStop();
        assertThrows(PollingLoop.Stopping.class, () -> loop.createClient("consumer", () -> "client", LoggerFactory.getLogger(PollingLoopTest.class)));
    }
}
