package org.scrapycluster.common.logging;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Remembers the subjects something was already said about (a domain, a kind of failure), so that it is said once
 * per subject: the most recent {@value #CAPACITY} subjects are kept, the oldest forgotten first. Thread-safe.
 */
public final class SaidOnce {

    /** Subjects remembered at once. */
    public static final int CAPACITY = 10_000;

    private final Map<String, Boolean> seen = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > CAPACITY;
        }
    };

    /** True the first time {@code subject} is given (or the first time since it was forgotten). */
    public synchronized boolean first(String subject) {
        return seen.put(subject, Boolean.TRUE) == null;
    }
}
