package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisConnectionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

class OutageReporterTest {

    private final Logger log = (Logger) LoggerFactory.getLogger("outage-reporter-test");
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final OutageReporter outage = new OutageReporter(log, "Statistics flush");

    @BeforeEach
    void capture() {
        logged.start();
        log.addAppender(logged);
        log.setLevel(Level.INFO);
    }

    @AfterEach
    void release() {
        log.detachAppender(logged);
    }

    @Test
    void anOutageIsSaidOnceWhenItStartsAndOnceWhenItEnds() {
        outage.failed(new RedisConnectionException("refused"));
        outage.failed(new RedisConnectionException("refused"));
        assertTrue(outage.isDown());
        outage.succeeded();
        outage.succeeded();
        assertFalse(outage.isDown());
        assertEquals(List.of("WARN Statistics flush failed, Redis unavailable: io.lettuce.core.RedisConnectionException: refused;"
                + " retrying in the background", "INFO Statistics flush works again, Redis is back"), lines());
    }

    @Test
    void anInterruptedCommandIsAStopNotAnOutage() {
        outage.failed(new RedisCommandInterruptedException(new InterruptedException()));
        assertFalse(outage.isDown());
        assertEquals(List.of(), lines());
    }

    private List<String> lines() {
        return logged.list.stream().map(event -> event.getLevel() + " " + event.getFormattedMessage()).toList();
    }
}
