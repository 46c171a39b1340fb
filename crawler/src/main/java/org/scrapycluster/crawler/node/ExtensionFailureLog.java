package org.scrapycluster.crawler.node;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells of the failures of the node's extensions without a stack trace a page (docs/extending.md, "When an extension
 * fails"): the first failure of each kind, the extension and what it threw where, at ERROR with its stack trace; the
 * same kind again at DEBUG. The caller counts every one in {@code crawler_errors_total{kind}}. Thread-safe.
 */
final class ExtensionFailureLog {

    private static final Logger LOG = LoggerFactory.getLogger(ExtensionFailureLog.class);

    private final SaidOnce kinds = new SaidOnce();

    /**
     * @param extension   what failed, as the log names it ({@code spider link})
     * @param failure     what it threw
     * @param url         the request it was working on
     * @param consequence what becomes of the request ({@code the page is dropped})
     */
    void failed(String extension, Throwable failure, String url, String consequence) {
        boolean first = kinds.first(extension + " " + kind(failure));
        (first ? LOG.atError() : LOG.atDebug()).addKeyValue("extension", extension).addKeyValue("url", url).setCause(failure)
                .log("The " + extension + " failed: " + failure + "; " + consequence
                        + (first ? " (the stack trace is written once per kind of failure; the others are counted in crawler_errors_total)" : ""));
    }

    /** The class of {@code failure} and where it was thrown. */
    private static String kind(Throwable failure) {
        StackTraceElement[] trace = failure.getStackTrace();
        return failure.getClass().getName() + (trace.length > 0 ? " at " + trace[0] : "");
    }
}
