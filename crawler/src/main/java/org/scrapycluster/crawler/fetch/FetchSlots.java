package org.scrapycluster.crawler.fetch;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;

/** The total concurrency limit of a {@link ReactorFetcher}: fetches beyond it wait, first come first served. */
final class FetchSlots {

    /** A fetch waiting for a slot: how to start it, and how to end it when the slots close first. */
    private record Waiting(Runnable start, Runnable cancel) {
    }

    private final Semaphore free;
    private final Queue<Waiting> waiting = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    FetchSlots(int slots) {
        this.free = new Semaphore(slots);
    }

    /**
     * Starts {@code start} once a slot is free (it gives the slot back with {@link #release()}), or runs
     * {@code cancel} if the slots close before.
     *
     * @return false, running neither, when the slots are closed already
     */
    boolean run(Runnable start, Runnable cancel) {
        if (closed) {
            return false;
        }
        waiting.add(new Waiting(start, cancel));
        if (closed) {
            endWaiting();
        }
        drain();
        return true;
    }

    void release() {
        free.release();
        drain();
    }

    /** Ends every waiting fetch; nothing starts any more. */
    void close() {
        closed = true;
        endWaiting();
    }

    private void endWaiting() {
        for (Waiting next = waiting.poll(); next != null; next = waiting.poll()) {
            next.cancel().run();
        }
    }

    private void drain() {
        while (!closed && !waiting.isEmpty() && free.tryAcquire()) {
            Waiting next = waiting.poll();
            if (next == null) {
                free.release();
            } else {
                next.start().run();
            }
        }
    }
}
