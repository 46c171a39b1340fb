package org.scrapycluster.common.queue;

/**
 * What a purge removed.
 *
 * @param queued requests removed from domain queues (the original's {@code total_purged})
 * @param leased requests removed while leased to a crawler (their pages may still be published)
 */
public record PurgeResult(long queued, long leased) {

    public long total() {
        return queued + leased;
    }
}
