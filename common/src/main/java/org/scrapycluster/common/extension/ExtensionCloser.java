package org.scrapycluster.common.extension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import org.slf4j.Logger;

/**
 * Closes the extensions of one kind when a service stops (docs/extending.md, "When an extension fails"). An extension's
 * {@code close()} has no limit: it runs on a thread of its own, and one that has not returned when its time is up is
 * logged, naming it, and left to finish alone while the service goes on stopping. Several extensions share one wait,
 * each given what is left of it, and at least {@link #LAST_CHANCE}: after one that hung has used the wait up, a close that
 * returns at once still does so in its time, and is not logged as one that did not. One whose {@code close()} throws (an
 * exception, or an error of its own code: {@link ExtensionFailures}) is logged, and the others are closed all the same.
 *
 * @param <T> the kind of extension
 */
public final class ExtensionCloser<T extends AutoCloseable> {

    /** How one extension is closed within the time it is given. */
    @FunctionalInterface
    public interface Closing<T> {
        void close(T extension, Duration wait) throws Throwable;
    }

    /** The least an extension is given to close, though the shared wait is used up: enough for a close with nothing to do. */
    static final Duration LAST_CHANCE = Duration.ofMillis(100);

    private final Logger log;
    private final String kind;
    private final Function<? super T, String> names;

    /**
     * @param log   where the service logs what did not close
     * @param kind  the kind of extension, as a log names it ({@code item pipeline}, {@code Redis monitor plugin})
     * @param names the name of each extension, as its settings list it
     */
    public ExtensionCloser(Logger log, String kind, Function<? super T, String> names) {
        this.log = log;
        this.kind = kind;
        this.names = names;
    }

    /** Closes every extension, last first, each {@link #closeWithin within} what is left of {@code wait}. */
    public void closeAll(List<? extends T> extensions, Duration wait) {
        closeAll(extensions, wait, this::closeWithin);
    }

    /**
     * Closes every extension, last first, as {@code closing} says, each given what is left of {@code wait} and at least
     * {@link #LAST_CHANCE}.
     */
    public void closeAll(List<? extends T> extensions, Duration wait, Closing<? super T> closing) {
        long deadline = System.nanoTime() + wait.toNanos();
        for (int i = extensions.size() - 1; i >= 0; i--) {
            T extension = extensions.get(i);
            try {
                closing.close(extension, Duration.ofNanos(Math.max(LAST_CHANCE.toNanos(), deadline - System.nanoTime())));
            } catch (Throwable e) {
                ExtensionFailures.rethrowIfFatal(e);
                log.atError().addKeyValue("extension", names.apply(extension)).setCause(e)
                        .log("The {} {} failed to close; closing the others", kind, names.apply(extension));
            }
        }
    }

    /**
     * Closes {@code extension} on a thread of its own, waiting for it at most {@code wait}.
     *
     * @throws Throwable what its {@code close()} threw, when it returned in time
     */
    public void closeWithin(T extension, Duration wait) throws Throwable {
        String name = names.apply(extension);
        CompletableFuture<Void> closed = new CompletableFuture<>();
        Thread closing = Thread.ofPlatform().daemon().name("close-" + name).unstarted(() -> {
            try {
                extension.close();
                closed.complete(null);
            } catch (Throwable e) {
                closed.completeExceptionally(e);
            }
        });
        closing.setContextClassLoader(extension.getClass().getClassLoader()); // as OwnClassLoader sets it for its other calls
        closing.start();
        try {
            closed.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw e.getCause();
        } catch (TimeoutException e) {
            log.atError().addKeyValue("extension", name).addKeyValue("waited", wait)
                    .log("The {} {} did not close in its time; stopping without waiting for it", kind, name);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
