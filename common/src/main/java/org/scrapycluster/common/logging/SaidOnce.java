package org.scrapycluster.common.logging;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.slf4j.Logger;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Remembers the subjects something was already said about (a domain, a kind of failure), so that it is said once
 * per subject: the most recent {@value #CAPACITY} subjects are kept, the oldest forgotten first. Thread-safe.
 */
public final class SaidOnce {

    /** Subjects remembered at once. */
    public static final int CAPACITY = 10_000;

    private final String per;
    private final Map<String, Boolean> seen = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > CAPACITY;
        }
    };

    /** @param per what a subject is ({@code domain}), as {@link #say} names it */
    public SaidOnce(String per) {
        this.per = per;
    }

    /** True the first time {@code subject} is given (or the first time since it was forgotten). */
    public synchronized boolean first(String subject) {
        return seen.put(subject, Boolean.TRUE) == null;
    }

    /**
     * Logs {@code message} of {@code subject} at {@code level} the first time, adding that it is said once per subject,
     * and at DEBUG after that, so that every occurrence can still be followed with DEBUG on.
     *
     * @param details adds the event's key-values
     */
    public void say(Logger log, Level level, String subject, UnaryOperator<LoggingEventBuilder> details, String message) {
        boolean first = first(subject);
        details.apply(first ? log.atLevel(level) : log.atDebug()).log(first ? message + ", said once per " + per : message);
    }
}
