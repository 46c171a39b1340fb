package org.scrapycluster.crawler.testing;

import java.util.List;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

/** What the crawler logs while a test's action runs. */
public final class CapturedLog {

    private CapturedLog() {
    }

    /** The events {@code logger} (a class's or a package's, and every logger under it) logs while {@code action} runs. */
    public static List<ILoggingEvent> of(String logger, Runnable action) {
        Logger log = (Logger) LoggerFactory.getLogger(logger);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        log.addAppender(appender);
        try {
            action.run();
        } finally {
            log.detachAppender(appender);
        }
        return List.copyOf(appender.list);
    }
}
