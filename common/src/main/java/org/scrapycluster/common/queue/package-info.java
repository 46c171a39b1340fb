/**
 * The crawl queues in Redis: per-domain priority queues, the exact cluster-wide throttled
 * hand-out, leases and their reaper, enqueueing, crawl accounting, purge and domain discovery.
 */
package org.scrapycluster.common.queue;
