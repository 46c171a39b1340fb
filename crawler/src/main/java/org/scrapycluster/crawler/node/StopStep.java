package org.scrapycluster.crawler.node;

import java.time.Duration;

import org.scrapycluster.common.redis.Ticker;
import org.scrapycluster.crawler.fetch.HttpFetcher;
import org.scrapycluster.crawler.pipeline.NodePipeline;
import org.scrapycluster.crawler.scheduler.LeaseKeeper;
import org.scrapycluster.crawler.scheduler.Scheduler;

/**
 * The waits of a stopping crawler node, in the order it makes them (docs/operations.md, "Stopping"), each with the
 * longest it waits (the part's own, when it is closed alone). How long each may wait on a given stop is for the
 * {@link StopBudget} to say.
 */
enum StopStep {

    /** The scheduler's loop dispatches the answers of the hand-out calls still out. */
    SCHEDULER(Scheduler.CLOSE_WAIT, false),
    /** The requests in flight finish. */
    DRAIN(Duration.ofSeconds(10), false),
    /**
     * A background task stops: discovery (closed first of all), the heartbeat, the lease reaper, the ZooKeeper follower
     * and the public IP's refresh (closed after the give-back), each waited for at most this.
     */
    BACKGROUND(Ticker.STOP_TIMEOUT, false),
    /** The fetches left are cancelled, and the fetcher's threads stop. */
    FETCHER(HttpFetcher.CLOSE_WAIT, false),
    /** The workers finish parsing, filing and handing results to the pipelines. */
    WORKERS(Duration.ofSeconds(5), false),
    /** The pipelines flush: Kafka takes the pages still going out. */
    PIPELINES(NodePipeline.CLOSE_WAIT, false),
    /** Redis answers the acknowledgements of the pages published; the leases still held are then handed back. */
    ACKNOWLEDGEMENTS(LeaseKeeper.ACKS_OUT_WAIT, true);

    private final Duration cap;
    private final boolean givesBack;

    StopStep(Duration cap, boolean givesBack) {
        this.cap = cap;
        this.givesBack = givesBack;
    }

    /** The longest this step waits. */
    Duration cap() {
        return cap;
    }

    /** Whether this step gives work back to the cluster, and so may use the budget's reserve. */
    boolean givesBack() {
        return givesBack;
    }
}
