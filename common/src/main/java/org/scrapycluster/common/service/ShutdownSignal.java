package org.scrapycluster.common.service;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Waits for the process to be told to stop (Ctrl-C, SIGTERM) and lets the main thread clean up
 * before the JVM exits: the JVM's shutdown hook wakes {@link #await()} and then holds the exit
 * until {@link #close()} says the cleanup is done, or until the grace period has passed.
 */
public final class ShutdownSignal implements AutoCloseable {

    private static final AtomicBoolean SHUTTING_DOWN = new AtomicBoolean();

    private final CountDownLatch requested = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;

    private ShutdownSignal(Duration grace) {
        this.hook = new Thread(() -> {
            SHUTTING_DOWN.set(true);
            requested.countDown();
            try {
                finished.await(grace.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "shutdown-signal");
    }

    /** Registers the shutdown hook; cleanup may take up to {@code grace} once a stop is asked for. */
    public static ShutdownSignal install(Duration grace) {
        ShutdownSignal signal = new ShutdownSignal(grace);
        Runtime.getRuntime().addShutdownHook(signal.hook);
        return signal;
    }

    /**
     * True once the JVM has begun to shut down because of a signal: {@code System.exit} must not
     * be called then, as it would wait for the shutdown hooks forever.
     */
    public static boolean jvmIsShuttingDown() {
        return SHUTTING_DOWN.get();
    }

    /** Blocks until the process is told to stop; an interrupt ends the wait too. */
    public void await() throws InterruptedException {
        requested.await();
    }

    /** The cleanup is done: lets a waiting shutdown proceed, or removes the hook when no stop was asked for. */
    @Override
    public void close() {
        finished.countDown();
        if (requested.getCount() > 0) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shutdownBegan) {
                // The JVM began to exit in the meantime; the hook finds the cleanup finished.
            }
        }
    }
}
