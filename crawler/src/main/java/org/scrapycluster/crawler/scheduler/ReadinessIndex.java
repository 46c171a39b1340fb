package org.scrapycluster.crawler.scheduler;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.PriorityQueue;

/**
 * The domains a crawler node may ask for work, ordered by the time (nanoseconds on the scheduler's clock)
 * each may next be hit under this node's throttle keys: choosing the next ready domain and
 * rescheduling one are O(log n) in the number of domains (docs/architecture.md, guarantee 3). Each domain is in the index at
 * most once; rescheduling a domain replaces its time. Ties go to the domain scheduled first.
 *
 * <p>Not thread-safe: the scheduler thread owns it.
 */
public final class ReadinessIndex {

    private final PriorityQueue<Entry> heap = new PriorityQueue<>();
    private final Map<String, Entry> live = new HashMap<>();
    private long sequence;

    /** Puts {@code domain} in the index, ready at {@code readyAt}, replacing any earlier time. */
    public void schedule(String domain, long readyAt) {
        Entry previous = live.get(domain);
        if (previous != null) {
            previous.stale = true;
        }
        Entry entry = new Entry(domain, readyAt, sequence++);
        live.put(domain, entry);
        heap.add(entry);
        compactIfNeeded();
    }

    /** Takes out the domain that is ready soonest, when it is ready at {@code now}. */
    public Optional<String> pollReady(long now) {
        dropStaleHead();
        Entry head = heap.peek();
        if (head == null || head.readyAt - now > 0) {
            return Optional.empty();
        }
        heap.poll();
        live.remove(head.domain);
        return Optional.of(head.domain);
    }

    /** When the next domain becomes ready, if any is in the index. */
    public OptionalLong nextReadyAt() {
        dropStaleHead();
        Entry head = heap.peek();
        return head == null ? OptionalLong.empty() : OptionalLong.of(head.readyAt);
    }

    /** Whether {@code domain} is in the index. */
    public boolean contains(String domain) {
        return live.containsKey(domain);
    }

    /** Takes {@code domain} out of the index. */
    public void remove(String domain) {
        Entry entry = live.remove(domain);
        if (entry != null) {
            entry.stale = true;
        }
    }

    /** Makes {@code domain}, when it is in the index and scheduled later than {@code at}, ready at {@code at} (its throttle changed). */
    public void advanceTo(String domain, long at) {
        Entry entry = live.get(domain);
        if (entry != null && entry.readyAt - at > 0) {
            schedule(domain, at);
        }
    }

    /** The number of domains in the index. */
    public int size() {
        return live.size();
    }

    private void dropStaleHead() {
        while (!heap.isEmpty() && heap.peek().stale) {
            heap.poll();
        }
    }

    /** Rebuilds the heap when replaced entries make up most of it, so memory stays O(domains). */
    private void compactIfNeeded() {
        if (heap.size() > 2 * live.size() + 64) {
            heap.clear();
            heap.addAll(live.values());
        }
    }

    private static final class Entry implements Comparable<Entry> {
        private final String domain;
        private final long readyAt;
        private final long order;
        private boolean stale;

        private Entry(String domain, long readyAt, long order) {
            this.domain = domain;
            this.readyAt = readyAt;
            this.order = order;
        }

        @Override
        public int compareTo(Entry other) {
            int byTime = Long.compare(readyAt - other.readyAt, 0);
            return byTime != 0 ? byTime : Long.compare(order, other.order);
        }
    }
}
