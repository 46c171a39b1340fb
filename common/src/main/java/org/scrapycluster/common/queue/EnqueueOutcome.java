package org.scrapycluster.common.queue;

/**
 * What became of one request filed: what {@link Enqueuer} did with it, or why a crawler refused it
 * before it reached Redis ({@link #NOT_HTTP}, {@link #INVALID_URL}).
 */
public enum EnqueueOutcome {
    /** Filed into its domain queue, counted in its crawl's accounting. */
    QUEUED,
    /** This exact member is already queued; nothing changed but the crawl's timeout key ({@link EnqueueResult#timeoutWritten}). */
    ALREADY_QUEUED,
    /** Its fingerprint was already in the crawl's dupefilter. */
    DUPLICATE,
    /** A page limit of its crawl and domain is reached ({@code domain_max_pages}, {@code GLOBAL_PAGE_PER_DOMAIN_LIMIT}). */
    PAGE_LIMIT,
    /** Its crawl is on the spider's blacklist (stopped or expired). */
    BLACKLISTED,
    /** Its domain is blacklisted in ZooKeeper and backlogs of blacklisted domains are not kept. */
    DOMAIN_BLACKLISTED,
    /** Its crawl's {@code expires} has passed (Redis server clock). */
    EXPIRED,
    /**
     * The member has no string {@code appid} and {@code crawlid} or no numeric {@code priority}; or, refused by the
     * crawler before Redis, its meta holds a value that cannot be written as JSON.
     */
    INVALID,
    /**
     * Redis refuses a key of it, which it would refuse again until the key is repaired: its queue, its crawl's
     * dupefilter or blacklist is a key of another type, a name shared with another key (such as the crawl accounting
     * of an appid {@code queue}), or a page counter of its crawl holds no number; nothing of it was recorded, and the
     * other requests of its call were filed ({@link EnqueueResult#refusal} has Redis' words).
     */
    KEY_CONFLICT,
    /** Refused by the crawler before Redis: its URL is neither http nor https. */
    NOT_HTTP,
    /** Refused by the crawler before Redis: its URL has no valid host. */
    INVALID_URL;

    /** Whether the request is now in its queue. */
    public boolean queued() {
        return this == QUEUED;
    }
}
