package org.scrapycluster.embedded.origin;

import java.util.ArrayDeque;
import java.util.List;
import java.util.function.Predicate;

/**
 * Every request the test origin received, oldest first, for politeness and header checks. Thread-safe and
 * bounded: past its capacity the oldest entries are dropped, and {@link #total()} still counts them.
 */
public final class RequestLog {

    private final int capacity;
    private final ArrayDeque<RecordedRequest> entries;
    private long total;

    RequestLog(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative: " + capacity);
        }
        this.capacity = capacity;
        this.entries = new ArrayDeque<>(Math.min(capacity, 1024));
    }

    synchronized void add(RecordedRequest request) {
        total++;
        if (capacity == 0) {
            return;
        }
        if (entries.size() == capacity) {
            entries.removeFirst();
        }
        entries.addLast(request);
    }

    /** How many requests arrived since start (or the last {@link #clear()}), kept or not. */
    public synchronized long total() {
        return total;
    }

    /** The kept requests, oldest first. */
    public synchronized List<RecordedRequest> all() {
        return List.copyOf(entries);
    }

    /** The kept requests {@code filter} accepts, oldest first. */
    public synchronized List<RecordedRequest> matching(Predicate<RecordedRequest> filter) {
        return entries.stream().filter(filter).toList();
    }

    /** The kept requests sent to domain {@code domainIndex}, oldest first. */
    public List<RecordedRequest> forDomain(int domainIndex) {
        return matching(r -> r.domainIndex() == domainIndex);
    }

    /** The kept requests for {@code path} (query ignored) on any domain, oldest first. */
    public List<RecordedRequest> forPath(String path) {
        return matching(r -> r.path().equals(path));
    }

    public synchronized void clear() {
        entries.clear();
        total = 0;
    }
}
