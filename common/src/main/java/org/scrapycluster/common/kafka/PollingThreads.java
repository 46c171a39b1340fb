package org.scrapycluster.common.kafka;

import java.time.Duration;

import org.apache.kafka.clients.consumer.Consumer;

/** Stopping a thread that spends its life in a Kafka consumer's {@code poll}. */
public final class PollingThreads {

    private PollingThreads() {
    }

    /**
     * Wakes {@code consumer} out of its poll (when there is one yet), interrupts {@code thread} out
     * of any other wait, and waits up to {@code timeout} for it to end.
     *
     * @return whether the thread ended within the timeout
     */
    public static boolean stop(Thread thread, Consumer<?, ?> consumer, Duration timeout) {
        if (consumer != null) {
            consumer.wakeup();
        }
        thread.interrupt();
        try {
            thread.join(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }
}
