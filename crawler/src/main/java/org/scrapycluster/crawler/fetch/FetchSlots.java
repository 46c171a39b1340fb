package org.scrapycluster.crawler.fetch;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;

/**
 * The concurrency limits of a {@link ReactorFetcher}: at most {@code total} fetches at once, at most
 * {@code perHost} of them to one scheme, host and port. Fetches beyond them wait, first come first served
 * within a host, and the hosts with fetches waiting take turns at a freed slot, so a host with many
 * fetches waiting never starves one with a few. A fetch is started only when its host has a connection to
 * spare, so it never holds a slot while it waits for a connection. Thread-safe.
 */
final class FetchSlots {

    /** A fetch waiting for a slot: how to start it, and how to end it when the slots close first. */
    private record Waiting(Runnable start, Runnable cancel) {
    }

    /** One host's fetches: those running and those waiting. */
    private static final class Host {
        int running;
        final Queue<Waiting> waiting = new ArrayDeque<>();
    }

    private final int total;
    private final int perHost;
    private final Map<HostKey, Host> hosts = new HashMap<>();
    /** The hosts with fetches waiting, in turn. */
    private final Queue<HostKey> turns = new ArrayDeque<>();
    private int running;
    private int waiting;
    private boolean closed;

    FetchSlots(int total, int perHost) {
        this.total = total;
        this.perHost = perHost;
    }

    /**
     * Starts {@code start} once a slot for {@code host} is free (it gives the slot back with {@link #release}), or
     * runs {@code cancel} if the slots close before. Either runs on the calling thread or on the one that frees the
     * slot or closes the slots, outside this object's lock.
     *
     * @return false, running neither, when the slots are closed already
     */
    boolean run(HostKey host, Runnable start, Runnable cancel) {
        Runnable now;
        synchronized (this) {
            if (closed) {
                return false;
            }
            Host slots = hosts.computeIfAbsent(host, key -> new Host());
            if (running < total && slots.running < perHost && slots.waiting.isEmpty()) {
                slots.running++;
                running++;
                now = start;
            } else {
                if (slots.waiting.isEmpty()) {
                    turns.add(host);
                }
                slots.waiting.add(new Waiting(start, cancel));
                waiting++;
                now = null;
            }
        }
        if (now != null) {
            now.run();
        }
        return true;
    }

    /** Gives back a slot of {@code host} and starts the fetches that can run now. */
    void release(HostKey host) {
        Queue<Runnable> starts = new ArrayDeque<>();
        synchronized (this) {
            Host slots = hosts.get(host);
            slots.running--;
            running--;
            if (slots.running == 0 && slots.waiting.isEmpty()) {
                hosts.remove(host);
            }
            if (!closed) {
                nextTurns(starts);
            }
        }
        starts.forEach(Runnable::run);
    }

    /** Fetches running now. */
    synchronized int running() {
        return running;
    }

    /** Fetches waiting for a slot. */
    synchronized int waiting() {
        return waiting;
    }

    /** Ends every waiting fetch; nothing starts any more. */
    void close() {
        Queue<Runnable> cancels = new ArrayDeque<>();
        synchronized (this) {
            closed = true;
            for (HostKey host : turns) {
                for (Waiting next : hosts.get(host).waiting) {
                    cancels.add(next.cancel());
                }
                hosts.get(host).waiting.clear();
            }
            turns.clear();
            waiting = 0;
        }
        cancels.forEach(Runnable::run);
    }

    /** Hands free slots to the hosts in turn; a host that cannot take one now keeps its place. */
    private void nextTurns(Queue<Runnable> starts) {
        int hostsAsked = 0;
        while (running < total && hostsAsked < turns.size()) {
            HostKey host = turns.poll();
            Host slots = hosts.get(host);
            if (slots.running >= perHost) {
                turns.add(host);
                hostsAsked++;
                continue;
            }
            starts.add(slots.waiting.poll().start());
            slots.running++;
            running++;
            waiting--;
            hostsAsked = 0;
            if (!slots.waiting.isEmpty()) {
                turns.add(host);
            }
        }
    }
}
