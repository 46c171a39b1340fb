package org.scrapycluster.crawler.node;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.crawler.scheduler.SchedulerInbox;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the pages a node crawls get through its pipelines (to Kafka). The first page that cannot be published
 * stalls the node: it says so once, and its scheduler keeps one request in flight instead of fetching pages whose
 * leases it would have to give back and whose sites it would hit again. The first page published after that
 * ends the stall, said once too, with how long it lasted and how many pages went back to their queues
 * (docs/operations.md, "Outages"). Once the node is stopping, a result that fails is one the stop cut short (the producer
 * closed with pages it could not send): that is said once, as such, and the node, which fetches nothing more, does not
 * stall. Thread-safe: results complete on any thread.
 */
final class ResultDelivery {

    private static final Logger LOG = LoggerFactory.getLogger(ResultDelivery.class);

    private final SchedulerInbox scheduler;
    private final CrawlerMetrics metrics;
    private final InstantSource clock;
    private final AtomicLong givenBack = new AtomicLong();
    /** When the stall began; null while results get through. Changed under the lock, so that the scheduler hears of the changes in order. */
    private volatile Instant stalledSince;
    private volatile boolean stopping;
    private final AtomicBoolean toldAtStop = new AtomicBoolean();

    ResultDelivery(SchedulerInbox scheduler, CrawlerMetrics metrics, InstantSource clock) {
        this.scheduler = scheduler;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** A page's result went through every pipeline. */
    void published() {
        if (stalledSince == null) {
            return;
        }
        synchronized (this) {
            Instant began = stalledSince;
            if (began == null) {
                return;
            }
            stalledSince = null;
            metrics.publishingStalled(false);
            scheduler.publishingStalled(false);
            LOG.atInfo().addKeyValue("stalled_seconds", Duration.between(began, clock.instant()).toSeconds())
                    .addKeyValue("pages_given_back", givenBack.getAndSet(0))
                    .log("Results are published again; back to CONCURRENT_REQUESTS");
        }
    }

    /** The node is stopping: it takes no more requests, and lets those in flight finish. */
    void nodeStopping() {
        stopping = true;
    }

    /** A page's result could not be published ({@code cause}); its lease is given up. */
    void failed(Throwable cause) {
        givenBack.incrementAndGet();
        if (stopping) {
            if (toldAtStop.compareAndSet(false, true)) {
                LOG.atWarn().addKeyValue("reason", String.valueOf(cause.getMessage()))
                        .log("Pages in flight at the stop cannot be published; their requests return to their queues once "
                                + "their leases expire (LEASE_SECONDS)");
            }
            return;
        }
        if (stalledSince != null) {
            return;
        }
        synchronized (this) {
            if (stalledSince != null) {
                return;
            }
            stalledSince = clock.instant();
            metrics.publishingStalled(true);
            scheduler.publishingStalled(true);
            LOG.atWarn().addKeyValue("reason", String.valueOf(cause.getMessage()))
                    .log("Results cannot be published; fetching one request at a time until one is");
        }
    }
}
