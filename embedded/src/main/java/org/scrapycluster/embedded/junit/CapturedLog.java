package org.scrapycluster.embedded.junit;

import java.util.List;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

/**
 * What a logger, a class's or a package's with every logger under it, writes while a test watches it: from
 * {@link #start} until {@link #close}, or while an action runs ({@link #of}).
 */
public final class CapturedLog implements AutoCloseable {

    private final Logger logger;
    private final Level levelBefore;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    private CapturedLog(String logger, Level level) {
        this.logger = (Logger) LoggerFactory.getLogger(logger);
        this.levelBefore = this.logger.getLevel();
        if (level != null) {
            this.logger.setLevel(level);
        }
        appender.start();
        this.logger.addAppender(appender);
    }

    /**
     * Captures what {@code logger} writes at {@code level} and above, its level set to {@code level} until closed; a
     * null level leaves the logger at the level it has.
     */
    public static CapturedLog start(String logger, Level level) {
        return new CapturedLog(logger, level);
    }

    /** Captures what the logger of {@code type} writes, as {@link #start(String, Level)} does. */
    public static CapturedLog start(Class<?> type, Level level) {
        return start(type.getName(), level);
    }

    /** The events {@code logger} writes, at the levels it is set to, while {@code action} runs. */
    public static List<ILoggingEvent> of(String logger, Runnable action) {
        try (CapturedLog log = new CapturedLog(logger, null)) {
            action.run();
            return log.events();
        }
    }

    /** The events written so far, in order. */
    public List<ILoggingEvent> events() {
        synchronized (appender) { // the lock the appender takes for each event it appends
            return List.copyOf(appender.list);
        }
    }

    /** The events written so far, each as its level and its message. */
    public List<String> lines() {
        return events().stream().map(event -> event.getLevel() + " " + event.getFormattedMessage()).toList();
    }

    /** Stops capturing, and sets the logger's level back. */
    @Override
    public void close() {
        logger.detachAppender(appender);
        logger.setLevel(levelBefore);
    }
}
