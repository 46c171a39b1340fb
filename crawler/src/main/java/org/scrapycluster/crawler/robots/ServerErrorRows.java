package org.scrapycluster.crawler.robots;

import java.util.concurrent.CompletableFuture;

/**
 * The server errors in a row (5xx, 429) that each host's robots.txt, never read, answered the crawler nodes with,
 * counted by all of them together, so that a cluster gives up waiting for a file as one node would
 * (docs/throttling.md): at the {@value RobotsCache#SERVER_ERRORS_TO_GIVE_UP}rd error of the row, whichever node meets
 * it, or at one that comes as many retry times less one after the row's first. An error that comes more than
 * {@value RobotsCache#SERVER_ERRORS_TO_GIVE_UP} retry times after the one before starts a row of its own.
 */
public interface ServerErrorRows {

    /** What the row says after an error. */
    enum Verdict {
        /** the host's pages wait for its file */
        WAIT,
        /** this error gives up waiting: everything is allowed until the file is read */
        GIVE_UP,
        /** an error before this one gave up */
        GIVEN_UP
    }

    /**
     * The row after an error.
     *
     * @param errors the errors in the row, this one included
     */
    record Row(int errors, Verdict verdict) {
    }

    /** Counts an error on {@code origin}'s robots.txt ({@code scheme://host[:port]}). */
    CompletableFuture<Row> count(String origin);

    /** Ends {@code origin}'s row: its file was read, or answered with no server error. */
    void end(String origin);
}
