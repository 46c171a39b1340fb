package org.scrapycluster.crawler.scheduler;

/**
 * How the last fetch of a request that is done ended, which is what makes a domain slow on a node or no longer slow
 * ({@link SlowDomains}).
 */
public enum LastFetch {

    /**
     * No fetch ended: the request was dropped or put back by a middleware before it was fetched, its fetch was cancelled
     * (the node is stopping), or it was no request at all. Says nothing of how the domain answers.
     */
    NONE,
    /** The fetch ended in its time: answered or failed before half of {@code DOWNLOAD_TIMEOUT}. */
    IN_TIME,
    /** The fetch ran out of {@code DOWNLOAD_TIMEOUT}, or ended, failed or answered, only after half of it. */
    SLOW
}
