package org.scrapycluster.common.service;

import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;

/**
 * Ends the process after an error a service cannot go on from (docs/operations.md, "Nothing lost"): the JVM out of
 * memory, a class or method its jar lacks (a stale or mixed installation). Without it the thread that met the error
 * dies or gives up its work while the process stays up, doing nothing, and looks alive to a supervisor that only
 * watches whether it runs. Exiting with {@link #STATUS} lets Docker's restart policy or Kubernetes start it again;
 * the shutdown hooks still run, so a service hands back what it holds as at any stop. The exit runs on a thread of
 * its own, so that the failing thread can end and a shutdown that waits for it does not wait in vain.
 */
public final class FatalExit {

    /** The exit status: EX_SOFTWARE, an internal error, told apart from a settings error (2) or a plain failure (1). */
    public static final int STATUS = 70;
    /** Whether the exit has begun: the errors of the threads that fail alike after the first are not logged again. */
    private static final AtomicBoolean BEGUN = new AtomicBoolean();

    private FatalExit() {
    }

    /**
     * Whether {@code error}, thrown by a service's own code, ends the service: the JVM itself failing ({@link #jvmFailed})
     * or a {@link LinkageError} (a class or method missing or changed: every later call fails alike).
     */
    public static boolean endsTheService(Throwable error) {
        return error instanceof LinkageError || jvmFailed(error);
    }

    /**
     * Whether {@code error} is the JVM itself failing (out of memory, an internal error), after which nothing a service
     * holds can be trusted, whatever code threw it; not a {@link StackOverflowError}, which is unwound by the time it is
     * caught and may be one input's doing.
     */
    public static boolean jvmFailed(Throwable error) {
        return error instanceof VirtualMachineError && !(error instanceof StackOverflowError);
    }

    /**
     * {@linkplain #log Says} that {@code what} failed with {@code error}, then {@linkplain #exitProcess begins the exit};
     * while the process is stopping already, says so instead (the stop may leave work unfinished because of it) and
     * leaves the exit to the stop. Only the first such error of the process is said.
     */
    public static void exit(Logger log, String what, Throwable error, String consequence) {
        if (!BEGUN.compareAndSet(false, true)) {
            return;
        }
        if (ShutdownSignal.jvmIsShuttingDown()) {
            log.atError().setCause(error).log(what + " failed with " + error + " while the process was stopping, "
                    + consequence);
            return;
        }
        log(log, what, error, consequence);
        startExit();
    }

    /**
     * Logs at ERROR that {@code what} failed with {@code error}, that the process exits with {@link #STATUS}, and what
     * then becomes of the work in hand ({@code consequence}).
     */
    public static void log(Logger log, String what, Throwable error, String consequence) {
        log.atError().setCause(error).addKeyValue("exit_status", STATUS)
                .log(what + " failed with " + error + ", which it cannot go on from; the process exits with status "
                        + STATUS + ", " + consequence);
    }

    /** Begins the process's exit with {@link #STATUS}, unless it is shutting down or exiting already. */
    public static void exitProcess() {
        if (begin()) {
            startExit();
        }
    }

    /** Whether this call begins the exit: the process is neither shutting down nor exiting already. */
    private static boolean begin() {
        return !ShutdownSignal.jvmIsShuttingDown() && BEGUN.compareAndSet(false, true);
    }

    private static void startExit() {
        Thread.ofPlatform().name("fatal-exit").start(() -> System.exit(STATUS));
    }
}
