package org.scrapycluster.common.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.read.ListAppender;

class SaidOnceTest {

    private final LoggerContext context = new LoggerContext();
    private final ListAppender<ILoggingEvent> written = new ListAppender<>();
    private final Logger log = context.getLogger("crawler");
    private final SaidOnce domains = new SaidOnce("domain");

    @BeforeEach
    void start() {
        context.setMDCAdapter(new LogbackMDCAdapter());
        written.setContext(context);
        written.start();
        log.addAppender(written);
        log.setLevel(Level.DEBUG);
    }

    @AfterEach
    void stop() {
        context.stop();
    }

    private void refused(String domain) {
        domains.say(log, org.slf4j.event.Level.WARN, domain, event -> event.addKeyValue("domain", domain), "Refused");
    }

    private List<String> lines() {
        return written.list.stream().map(event -> event.getLevel() + " " + event.getFormattedMessage() + " "
                + event.getKeyValuePairs().getFirst().value).toList();
    }

    @Test
    void theFirstTimeASubjectIsSaidAtTheLevelGivenAndThenAtDebug() {
        refused("a.com");
        refused("a.com");
        refused("b.com");
        assertEquals(List.of("WARN Refused, said once per domain a.com", "DEBUG Refused a.com", "WARN Refused, said once per domain b.com"),
                lines());
    }

    @Test
    void theOldestSubjectIsForgottenFirst() {
        assertTrue(domains.first("s0"));
        for (int subject = 1; subject <= SaidOnce.CAPACITY; subject++) {
            domains.first("s" + subject);
        }
        assertFalse(domains.first("s" + SaidOnce.CAPACITY), "the newest is remembered");
        assertTrue(domains.first("s0"), "the oldest was forgotten to keep " + SaidOnce.CAPACITY);
    }
}
