package org.scrapycluster.rest.http;

import java.time.Duration;

/**
 * The answers the gateway owes, across its connections: a request counts from the moment it is handed to the
 * {@link Dispatcher} until its answer is written. A stopping gateway stops listening, then waits for these answers
 * (a {@code /feed} may be waiting for Kafka and for its answer) before it closes the connections, so that no client
 * is cut off without the answer to a request the cluster may already have taken. Once draining, the last answer a
 * connection owes says {@code Connection: close} ({@link ConnectionTurns}), so kept-alive clients go elsewhere.
 * Thread-safe.
 */
final class InFlight {

    private int owed;
    private boolean draining;

    synchronized void began() {
        owed++;
    }

    synchronized void ended() {
        owed--;
        if (owed == 0) {
            notifyAll();
        }
    }

    /** Whether the gateway is stopping: the last answer a connection owes closes it. */
    synchronized boolean draining() {
        return draining;
    }

    /**
     * Marks the gateway as stopping and waits until every answer owed is written, or {@code limit} has passed.
     *
     * @return whether every answer was written
     */
    synchronized boolean drain(Duration limit) throws InterruptedException {
        draining = true;
        long deadline = System.nanoTime() + limit.toNanos();
        while (owed > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }
}
