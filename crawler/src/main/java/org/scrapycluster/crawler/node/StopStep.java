package org.scrapycluster.crawler.node;

import java.time.Duration;
import java.time.InstantSource;

import org.scrapycluster.common.redis.Ticker;
import org.scrapycluster.common.service.StopBudget;
import org.scrapycluster.crawler.fetch.HttpFetcher;
import org.scrapycluster.crawler.pipeline.NodePipeline;
import org.scrapycluster.crawler.scheduler.LeaseKeeper;
import org.scrapycluster.crawler.scheduler.Scheduler;

/**
 * The waits of a stopping crawler node, in the order it makes them (docs/operations.md, "Stopping"), each with the
 * longest it waits (the part's own, when it is closed alone). How long each may wait on a given stop is for the
 * node's {@link StopBudget} to say: it ends {@link #AFTERWARDS} before the process's shutdown grace does, and its last
 * {@link #GIVE_BACK_RESERVE} is kept for the steps that give work back to the cluster: the acknowledgements of the
 * pages published, and the hand-back of the leases of the requests not crawled. When the parts before them stall,
 * they are cut short, not the give-back, which the process's exit would otherwise cut off, leaving those requests
 * leased until their leases expire.
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
    /** The spider, link filters and downloader middlewares close. */
    EXTENSIONS(NodeExtensions.CLOSE_WAIT, false),
    /** Redis answers the acknowledgements of the pages published; the leases still held are then handed back. */
    ACKNOWLEDGEMENTS(LeaseKeeper.ACKS_OUT_WAIT, true);

    /** Kept, after the budget, for what closes after the give-back: the last write of statistics, the Redis connection. */
    static final Duration AFTERWARDS = Duration.ofSeconds(2);
    /** Kept for giving work back: the acknowledgements' own wait (5 s), then 2 s to hand the leases back. */
    static final Duration GIVE_BACK_RESERVE = LeaseKeeper.ACKS_OUT_WAIT.plus(LeaseKeeper.HAND_BACK_WAIT);

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

    /** How long this step may wait, beginning now: its cap, or what is left of {@code budget} for it, whichever is shorter. */
    Duration grantedBy(StopBudget budget) {
        return givesBack ? budget.reservedWaitFor(cap) : budget.waitFor(cap);
    }

    /** The budget of a node's stop that begins now, for a process that exits {@code grace} from now. */
    static StopBudget budget(Duration grace, InstantSource clock) {
        return StopBudget.of(grace.minus(AFTERWARDS), GIVE_BACK_RESERVE, clock);
    }
}
