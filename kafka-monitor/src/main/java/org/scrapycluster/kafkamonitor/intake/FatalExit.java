package org.scrapycluster.kafkamonitor.intake;

import org.scrapycluster.common.service.ShutdownSignal;

/**
 * Ends the process after an error the monitor's consumer thread cannot go on from: an {@link OutOfMemoryError}, a
 * {@link StackOverflowError} of its own code, a class its jar lacks (docs/operations.md, "Nothing lost"). Without
 * it the thread dies alone, its batch uncommitted, while the process stays up consuming nothing and looks alive to a
 * supervisor that only watches whether it runs. Exiting with {@link #STATUS} lets Docker's restart policy or
 * Kubernetes start it again, and the batch is taken again from its last committed offset. The exit
 * runs on a thread of its own, so that the consumer's thread can end and the shutdown, which waits for it, does not
 * wait in vain.
 */
final class FatalExit {

    /** The exit status: EX_SOFTWARE, an internal error, told apart from a settings error (2) or a plain failure (1). */
    static final int STATUS = 70;

    private FatalExit() {
    }

    /** Begins the process's exit with {@link #STATUS}, unless it is shutting down already. */
    static void exitProcess() {
        if (ShutdownSignal.jvmIsShuttingDown()) {
            return;
        }
        Thread.ofPlatform().name("kafka-monitor-exit").start(() -> System.exit(STATUS));
    }
}
