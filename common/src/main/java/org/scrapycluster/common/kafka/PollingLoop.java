package org.scrapycluster.common.kafka;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.KafkaException;
import org.scrapycluster.common.service.Backoff;
import org.scrapycluster.common.service.Interrupts;
import org.slf4j.Logger;

/**
 * The life of a thread that spends its time in a Kafka consumer's {@code poll}: the request to
 * stop, the waits and retries that end when it comes, and the stop itself. The thread unwinds by
 * {@link Stopping}, which {@link #check()}, {@link #pause(Duration)} and
 * {@link #createClient(String, Supplier, Logger)} throw once a stop was asked for, and ends by
 * {@link #release(Runnable)}, which closes its clients out of reach of the stop's interrupt. Work the thread
 * {@link #runToEnd runs to its end} (a batch it commits) is let finish by a stop, for up to half the stop's timeout,
 * unless it {@link #waitsOut waits out an outage}.
 */
public final class PollingLoop {

    private final AtomicBoolean stopping = new AtomicBoolean();
    private final Object interrupting = new Object();
    private boolean releasing;
    /** Whether work a stop lets finish is under way (guarded by {@link #interrupting}). */
    private boolean finishing;

    /** Asks the loop to stop; true the first time only. */
    public boolean requestStop() {
        return stopping.compareAndSet(false, true);
    }

    /** Whether a stop was asked for. */
    public boolean stopping() {
        return stopping.get();
    }

    /** @throws Stopping when a stop was asked for */
    public void check() {
        if (stopping()) {
            throw new Stopping();
        }
    }

    /** Sleeps for {@code delay}. @throws Stopping when interrupted, or when a stop was asked for meanwhile */
    public void pause(Duration delay) {
        if (!delay.isZero()) {
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                throw new Stopping();
            }
        }
        check();
    }

    /**
     * Creates a Kafka client, retrying with back-off while Kafka refuses (said once on {@code log})
     * until it works or a stop is asked for.
     */
    public <T> T createClient(String what, Supplier<T> factory, Logger log) {
        check();
        return Backoff.standard().retry(KafkaException.class, factory,
                e -> log.warn("Cannot create the Kafka {} ({}{}); retrying", what, e.getMessage(),
                        e.getCause() == null ? "" : ": " + e.getCause().getMessage()), this::pause);
    }

    /**
     * Runs {@code unit}, work that a stop asked for meanwhile lets run to its end rather than interrupting it
     * ({@link #awaitEnd}), so that it is not left half done, to be done again by whoever takes over: a batch of
     * records written, whose offsets are committed once it is. {@link #check()} and {@link #pause} go on throwing
     * once a stop was asked for, so a unit that pauses gives itself up.
     */
    public void runToEnd(Runnable unit) {
        synchronized (interrupting) {
            finishing = true;
        }
        try {
            unit.run();
        } finally {
            synchronized (interrupting) {
                finishing = false;
                interrupting.notifyAll();
            }
        }
    }

    /**
     * Runs {@code wait}, in which the unit under way ({@link #runToEnd}) waits out an outage: a stop meanwhile does not
     * let it finish, but wakes and interrupts it at once. Once the wait is over the unit goes on as before it, let
     * finish by a stop.
     */
    public void waitsOut(Runnable wait) {
        boolean wasFinishing;
        synchronized (interrupting) {
            wasFinishing = finishing;
            finishing = false;
            interrupting.notifyAll();
        }
        try {
            wait.run();
        } finally {
            synchronized (interrupting) {
                finishing = wasFinishing;
            }
        }
    }

    /**
     * Runs {@code release}, the thread's last step that closes its Kafka clients, where {@link #awaitEnd} no longer
     * interrupts it: a client closed by an interrupted thread gives up its close, and says so with an ERROR and a
     * stack trace ({@code InterruptException}), and a stop that came as the thread was leaving its loop on its own
     * would interrupt it there. An interrupt that came before is cleared for the release, and set again after it.
     */
    public void release(Runnable release) {
        synchronized (interrupting) {
            releasing = true;
        }
        Interrupts.putAside(release);
    }

    /**
     * Wakes {@code consumer} out of its poll (when there is one yet) and interrupts {@code thread} out of any other
     * wait, unless it is already closing its clients ({@link #release}), and waits up to {@code timeout} for it to
     * end; call it after {@link #requestStop()}. A unit the thread {@link #runToEnd runs to its end} is first let
     * finish, for up to half of {@code timeout}, unless it {@link #waitsOut waits}.
     *
     * @return whether the thread ended within the timeout
     */
    public boolean awaitEnd(Thread thread, Consumer<?, ?> consumer, Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        synchronized (interrupting) {
            long graceEnd = end - timeout.toNanos() / 2;
            long left;
            while (finishing && !releasing && (left = graceEnd - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(interrupting, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            if (!releasing) {
                if (consumer != null) {
                    consumer.wakeup();
                }
                thread.interrupt();
            }
        }
        try {
            thread.join(Duration.ofNanos(Math.max(0, end - System.nanoTime())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }

    /** Unwinds the polling thread once a stop was asked for; carries no stack trace. */
    public static final class Stopping extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public Stopping() {
            super(null, null, false, false);
        }
    }
}
