package org.scrapycluster.common.service;

/**
 * Work that an interrupt which came before it (a stop's) must not cut short: a Redis command or a Kafka client's close
 * made on an interrupted thread fails at once. The interrupt is kept for after the work, so the stop still ends what
 * follows.
 */
public final class Interrupts {

    private Interrupts() {
    }

    /** Runs {@code work} with this thread's interrupt cleared, and sets it again afterwards when it was set. */
    public static void putAside(Runnable work) {
        boolean interrupted = Thread.interrupted();
        try {
            work.run();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
