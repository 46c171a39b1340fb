package org.scrapycluster.common.extension;

import java.util.Map;

import org.scrapycluster.common.logging.SaidOnce;
import org.slf4j.Logger;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Tells of the failures of a service's extensions without a stack trace a page or a request (docs/extending.md, "When
 * an extension fails"): the first failure of each kind, the extension and what it threw where, at ERROR with its stack
 * trace; the same kind again at DEBUG. The caller counts every one in a metric. Thread-safe.
 */
public final class ExtensionFailureLog {

    private final Logger log;
    private final String counter;
    private final SaidOnce kinds = new SaidOnce("kind of failure");

    /**
     * @param log     where to write (the logger of the part that called the extension)
     * @param counter the metric every failure is counted in, as the log names it ({@code crawler_errors_total})
     */
    public ExtensionFailureLog(Logger log, String counter) {
        this.log = log;
        this.counter = counter;
    }

    /**
     * @param extension   what failed, as the log names it ({@code spider link})
     * @param failure     what it threw
     * @param consequence what becomes of its work ({@code the page is dropped})
     * @param context     key-values of the work ({@code url})
     */
    public void failed(String extension, Throwable failure, String consequence, Map<String, ?> context) {
        boolean first = kinds.first(extension + " " + kind(failure));
        LoggingEventBuilder event = (first ? log.atError() : log.atDebug()).addKeyValue("extension", extension).setCause(failure);
        context.forEach(event::addKeyValue);
        event.log("The " + extension + " failed: " + ExtensionFailures.described(failure) + "; " + consequence
                + (first ? " (the stack trace is written once per kind of failure; every one is counted in " + counter + ")" : ""));
    }

    /** The class of {@code failure} and where it was thrown. */
    private static String kind(Throwable failure) {
        StackTraceElement[] trace = failure.getStackTrace();
        return failure.getClass().getName() + (trace.length > 0 ? " at " + trace[0] : "");
    }
}
