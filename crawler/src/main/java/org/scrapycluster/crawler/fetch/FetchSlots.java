package org.scrapycluster.crawler.fetch;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;

/** The total concurrency limit of a {@link ReactorFetcher}: fetches beyond it wait, first come first served. */
final class FetchSlots {

    private final Semaphore free;
    private final Queue<Runnable> waiting = new ConcurrentLinkedQueue<>();

    FetchSlots(int slots) {
        this.free = new Semaphore(slots);
    }

    /** Runs {@code fetch} once a slot is free; the fetch gives it back with {@link #release()}. */
    void run(Runnable fetch) {
        waiting.add(fetch);
        drain();
    }

    void release() {
        free.release();
        drain();
    }

    private void drain() {
        while (!waiting.isEmpty() && free.tryAcquire()) {
            Runnable next = waiting.poll();
            if (next == null) {
                free.release();
            } else {
                next.run();
            }
        }
    }
}
