package org.scrapycluster.common.service;

import java.time.Duration;

import org.slf4j.LoggerFactory;

/**
 * A process that, once told to stop, meets an error it cannot go on from during its stop, as a worker running out of
 * memory while it finishes its work does ({@link FatalExitTest}).
 */
public final class FailingWhileStopping {

    private FailingWhileStopping() {
    }

    public static void main(String[] args) throws InterruptedException {
        try (ShutdownSignal signal = ShutdownSignal.install(Duration.ofSeconds(30))) {
            System.out.println("ready");
            System.out.flush();
            signal.await();
            FatalExit.exit(LoggerFactory.getLogger(FailingWhileStopping.class), "A worker", new OutOfMemoryError("Java heap space"),
                    "and its page is crawled again");
        }
    }
}
