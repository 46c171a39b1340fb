package org.scrapycluster.common.logging;

import java.time.Duration;
import java.util.function.LongSupplier;

import org.slf4j.Marker;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * Keeps an outage from flooding the log ({@code LOG_REPEAT_SECONDS}). The client libraries warn of
 * the same thing on every attempt: Kafka's of each failed connection to a broker, ZooKeeper's of each
 * lost session with its stack trace, every second or so for as long as the server is away. A WARN or
 * ERROR of a library (a logger outside {@value ServiceLoggerNames#ROOT_PACKAGE}) whose logger, level
 * and message pattern (the text before its arguments are filled in) were written less than a period
 * ago is counted instead of written; the next one written is preceded by a line saying how many were
 * left out. The services' own messages always pass: they say an outage once, when it starts and ends.
 */
final class RepeatedMessages extends TurboFilter {

    /** Patterns remembered at once; the least recently seen is forgotten first. */
    private static final int MAX_PATTERNS = 1024;

    private final long periodNanos;
    private final LongSupplier nanoTime;
    private final org.slf4j.Logger report;
    private final Cache<Pattern, Repeats> patterns = Caffeine.newBuilder().maximumSize(MAX_PATTERNS).build();

    /**
     * @param period   how long a pattern is held back after it was written; must be positive
     * @param nanoTime the monotonic clock periods are measured on ({@link System#nanoTime} in a service)
     * @param report   where the counts of messages left out are written (a logger of this package)
     */
    RepeatedMessages(Duration period, LongSupplier nanoTime, org.slf4j.Logger report) {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("the period must be positive, got " + period);
        }
        this.periodNanos = period.toNanos();
        this.nanoTime = nanoTime;
        this.report = report;
    }

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        // asked before the logger's level is: a message of a logger set above it is never written, nor counted
        if (format == null || !level.isGreaterOrEqual(Level.WARN) || logger.getName().startsWith(ServiceLoggerNames.ROOT_PACKAGE)
                || !logger.isEnabledFor(level)) {
            return FilterReply.NEUTRAL;
        }
        long now = nanoTime.getAsLong();
        Repeats repeats = patterns.get(new Pattern(logger.getName(), level, format), pattern -> new Repeats());
        int leftOut;
        synchronized (repeats) {
            if (repeats.written && now - repeats.writtenAt < periodNanos) {
                repeats.leftOut++;
                return FilterReply.DENY;
            }
            leftOut = repeats.leftOut;
            repeats.leftOut = 0;
            repeats.written = true;
            repeats.writtenAt = now;
        }
        if (leftOut > 0) {
            report.atLevel(org.slf4j.event.Level.valueOf(level.levelStr)).addKeyValue("library_logger", logger.getName())
                    .addKeyValue("left_out", leftOut)
                    .log("Left out " + leftOut + " more of the next message since it was last written");
        }
        return FilterReply.NEUTRAL;
    }

    private record Pattern(String logger, Level level, String format) {
    }

    /** Guarded by itself. */
    private static final class Repeats {
        private boolean written;
        private long writtenAt;
        private int leftOut;
    }
}
