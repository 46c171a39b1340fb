package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisConnectionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;

class OutageReporterTest {

    private final Logger log = LoggerFactory.getLogger("outage-reporter-test");
    private final OutageReporter outage = new OutageReporter(log, "Statistics flush");
    private CapturedLog logged;

    @BeforeEach
    void capture() {
        logged = CapturedLog.start(log.getName(), Level.INFO);
    }

    @AfterEach
    void release() {
        logged.close();
    }

    @Test
    void anOutageIsSaidOnceWhenItStartsAndOnceWhenItEnds() {
        outage.failed(new RedisConnectionException("refused"));
        outage.failed(new RedisConnectionException("refused"));
        assertTrue(outage.isDown());
        outage.failed(new RedisCommandExecutionException("OOM command not allowed when used memory > 'maxmemory'."));
        assertEquals(Optional.of("OOM command not allowed when used memory > 'maxmemory'."), outage.lastFailure(),
                "what Redis said last, for the health check");
        outage.succeeded();
        outage.succeeded();
        assertFalse(outage.isDown());
        assertEquals(Optional.empty(), outage.lastFailure());
        assertEquals(List.of("WARN Statistics flush failed, Redis unavailable: io.lettuce.core.RedisConnectionException: refused;"
                + " retrying in the background", "INFO Statistics flush works again, Redis is back"), logged.lines());
    }

    @Test
    void anInterruptedCommandIsAStopNotAnOutage() {
        outage.failed(new RedisCommandInterruptedException(new InterruptedException()));
        assertFalse(outage.isDown());
        assertEquals(List.of(), logged.lines());
    }

    @Test
    void aFailureOfAnInterruptedThreadIsAStopNotAnOutage() {
        Thread.currentThread().interrupt();
        try {
            outage.failed(new RedisConnectionException("Unable to connect"));
        } finally {
            Thread.interrupted();
        }
        assertFalse(outage.isDown());
        assertEquals(List.of(), logged.lines());
    }
}
