package org.scrapycluster.crawler.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.lettuce.core.RedisException;
import org.scrapycluster.common.queue.CrawlFields;
import org.scrapycluster.common.queue.Leases;
import org.scrapycluster.common.redis.BatchedCalls;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.common.redis.RetriedCall;
import org.scrapycluster.common.redis.Ticker;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this node's leases alive while their requests are worked on (docs/architecture.md, guarantee 1): a lease held for more
 * than a third of its length is renewed, so that a slow fetch never lets its request return to the queue
 * under another node; a lease found no longer held is counted as lost (its request may be fetched twice;
 * results are at-least-once). Acknowledges a lease when its outcome is final. At shutdown, leases still
 * held are cut short so that the reaper hands their requests to other nodes at once. Acknowledgements are
 * {@link BatchedCalls batched}: those made while one call is out are settled together by the next. One that Redis does
 * not take (unavailable, out of memory) is tried again every {@link #RETRY} for up to half a lease, within which the
 * lease cannot have ended, since it is renewed whenever a third of it has passed: a page published during a short
 * outage is not crawled again when its lease ends. The writes of a request's outcome before its acknowledgement (the
 * links of its page) are tried again the same way, {@link #whileHeld while its lease is held}. Time is read from the
 * clock it is given; renewal runs on a thread of its own only after {@link #start()}.
 */
public final class LeaseKeeper implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);
    private static final Duration HAND_BACK = Duration.ofMillis(1);
    /** The most acknowledgements settled by one script call. */
    private static final int MAX_ACKS_PER_CALL = 256;
    /** How long a failed acknowledgement, or a failed write {@link #whileHeld while a lease is held}, waits to be tried again. */
    static final Duration RETRY = Duration.ofSeconds(1);
    /** The longest {@link #close()} waits for the acknowledgements still out. */
    public static final Duration ACKS_OUT_WAIT = Duration.ofSeconds(5);
    /** The longest {@link #close()} waits, after them, for the leases still held to be handed back (all together). */
    public static final Duration HAND_BACK_WAIT = Duration.ofSeconds(2);

    private final Leases leases;
    private final String spiderId;
    private final Duration lease;
    private final CrawlerMetrics metrics;
    private final Map<String, Long> renewedAt = new ConcurrentHashMap<>();
    /**
     * Held while a deadline's move is sent (not while Redis answers): a renewal whose pass began before its lease was
     * handed back would otherwise be sent after the hand-back and keep the request from its queue for a whole lease.
     * Every move goes on the one connection of {@link #leases}, so Redis makes them in the order they were sent (but
     * for a move Redis answers NOSCRIPT, after a restart or failover, whose script is sent again later: a renewal may then
     * land after a hand-back, and the request return a lease later, not be lost).
     */
    private final Object deadlines = new Object();
    private final OutageReporter outage = new OutageReporter(LOG, "Lease renewal");
    /** The outages of the writes tried again ({@link #retried}), said once each: by the name they are counted under. */
    private final Map<String, OutageReporter> writeOutages = new ConcurrentHashMap<>();
    private final Ticker ticker;
    private final InstantSource clock;
    /** Runs each retry {@link #RETRY} after the failure before it. */
    private final Executor retries;
    private final BatchedCalls<Leases.Ack, Boolean> acks;
    private final Set<CompletableFuture<Boolean>> acksOut = ConcurrentHashMap.newKeySet();
    private final Set<CompletableFuture<Void>> handBacksOut = ConcurrentHashMap.newKeySet();
    /** Set when the keeper closes: an acknowledgement that fails then is not tried again. */
    private volatile boolean closing;

    public LeaseKeeper(Leases leases, String spiderId, Duration lease, CrawlerMetrics metrics, InstantSource clock) {
        this(leases, spiderId, lease, metrics, clock, CompletableFuture.delayedExecutor(RETRY.toMillis(), TimeUnit.MILLISECONDS));
    }

    /**
     * A keeper whose retries {@code retries} runs instead of a timer: a test runs them by hand, its clock moved on by
     * {@link #RETRY} first.
     */
    LeaseKeeper(Leases leases, String spiderId, Duration lease, CrawlerMetrics metrics, InstantSource clock, Executor retries) {
        this.leases = leases;
        this.spiderId = spiderId;
        this.lease = lease;
        this.metrics = metrics;
        this.clock = clock;
        this.retries = retries;
        this.ticker = new Ticker("crawler-leases-" + spiderId);
        this.acks = new BatchedCalls<>(batch -> leases.ackAllAsync(spiderId, batch), MAX_ACKS_PER_CALL);
        metrics.leasesHeld(renewedAt::size);
    }

    /** Starts renewing in the background. */
    public void start() {
        Duration period = lease.dividedBy(6);
        ticker.every(period, period, this::renewDue);
    }

    /** Starts keeping {@code leaseId} alive. */
    public void hold(String leaseId) {
        renewedAt.put(leaseId, clock.millis());
    }

    /**
     * Acknowledges {@code leaseId}, a request of the crawl {@code crawl}: its outcome is final ({@code pagePublished}
     * when a result went out). The acknowledgements made while one script call is out go together in the next; one
     * that fails is tried again every {@link #RETRY} until the lease ends (a lease after its last renewal, which an
     * outage may have made long ago: after that the request is back in its queue), or the keeper closes.
     *
     * @return whether the lease was still held when an attempt went through (false after an attempt whose answer was
     *         lost had gone through, too); exceptionally once the attempts are given up
     */
    public CompletableFuture<Boolean> acknowledge(String leaseId, Optional<CrawlFields> crawl, boolean pagePublished) {
        Long renewed = renewedAt.remove(leaseId);
        long leaseEnds = (renewed != null ? renewed : clock.millis()) + lease.toMillis();
        Leases.Ack ack = new Leases.Ack(leaseId, crawl, pagePublished);
        CompletableFuture<Boolean> settled = retried("ack", () -> !closing, () -> acks.call(ack), leaseEnds);
        acksOut.add(settled);
        settled.whenComplete((held, failure) -> acksOut.remove(settled));
        return settled;
    }

    /**
     * Makes a write of {@code leaseId}'s outcome that must land before the lease is acknowledged (the links of its page),
     * tried again every {@link #RETRY} while the lease is held, for up to half a lease: a request whose links Redis did
     * not take during a short outage is not crawled again.
     *
     * @param call the write (made again, whole, after a failure: it must be idempotent)
     * @param what names the write in the count of retries, {@code crawler_redis_retries_total{call}}
     */
    public <T> CompletableFuture<T> whileHeld(String leaseId, String what, Supplier<CompletableFuture<T>> call) {
        return retried(what, () -> renewedAt.containsKey(leaseId), call, clock.millis() + lease.toMillis() / 2);
    }

    /**
     * Makes {@code call}, tried again every {@link #RETRY} while {@code wanted}, until {@code givesUpAt}; each retry counted,
     * and an outage said once when it begins and once when it ends, with Redis's reason (its {@code OOM} at maxmemory).
     */
    private <T> CompletableFuture<T> retried(String what, BooleanSupplier wanted, Supplier<CompletableFuture<T>> call, long givesUpAt) {
        return RetriedCall.make(retries, call, () -> {
            if (!wanted.getAsBoolean() || clock.millis() >= givesUpAt) {
                return false;
            }
            metrics.redisRetry(what);
            return true;
        }, writeOutages.computeIfAbsent(what, name -> new OutageReporter(LOG, "Redis write '" + name + "'")));
    }

    /**
     * Renews {@code leaseId} now, before a write that sends its request round again (a retry): a lease this node lost
     * while it stalled (a pause longer than the lease: the reaper has put the request back, and another node may have
     * crawled it) must not add a third fetch of the page. A lost lease is counted and logged as a renewal pass does.
     *
     * @return whether the lease is still held; true when Redis could not answer (the write's own tries see to it), and
     *         once the keeper has closed (it handed the lease back: the write goes first, as before a stop)
     */
    public CompletableFuture<Boolean> stillHeld(String leaseId) {
        long now = clock.millis();
        CompletableFuture<Optional<Instant>> renewal;
        synchronized (deadlines) {
            if (!renewedAt.containsKey(leaseId)) {
                return CompletableFuture.completedFuture(closing);
            }
            try {
                renewal = leases.renewAsync(spiderId, leaseId, lease);
            } catch (RedisException e) {
                return CompletableFuture.completedFuture(true);
            }
        }
        return renewal.handle((deadline, failure) -> {
            if (failure != null) {
                return true;
            }
            renewed(leaseId, deadline, now);
            return deadline.isPresent();
        });
    }

    /** Stops keeping {@code leaseId} alive without acknowledging it: it returns to its queue when it expires. */
    public void abandon(String leaseId) {
        synchronized (deadlines) {
            renewedAt.remove(leaseId);
        }
    }

    /**
     * Gives {@code leaseId} up unfinished, cut short so that the reaper returns its request to its queue at once (its
     * fetch was cancelled, or a middleware put it back untried). The caller does not wait for Redis.
     *
     * @return done when Redis has taken the hand-back, or it failed (logged): the lease then returns when it expires
     */
    public CompletableFuture<Void> handBack(String leaseId) {
        CompletableFuture<Void> handedBack;
        synchronized (deadlines) { // with close's copy of those out
            if (renewedAt.remove(leaseId) == null) {
                return CompletableFuture.completedFuture(null);
            }
            handedBack = handBackAsync(leaseId);
            handBacksOut.add(handedBack);
        }
        return handedBack.whenComplete((done, failure) -> {
            handBacksOut.remove(handedBack);
            if (failure != null) {
                LOG.atWarn().addKeyValue("lease", leaseId).log("Could not hand a lease back; it returns to its queue when it expires");
            }
        });
    }

    /** Renews every lease held longer than a third of its length: sent together, then their answers read. */
    void renewDue() {
        long now = clock.millis();
        long due = lease.toMillis() / 3;
        Map<String, CompletableFuture<Optional<Instant>>> renewals = new LinkedHashMap<>();
        try {
            synchronized (deadlines) {
                for (Map.Entry<String, Long> held : renewedAt.entrySet()) {
                    if (now - held.getValue() >= due) {
                        renewals.put(held.getKey(), leases.renewAsync(spiderId, held.getKey(), lease));
                    }
                }
            }
            for (Map.Entry<String, CompletableFuture<Optional<Instant>>> renewal : renewals.entrySet()) {
                renewed(renewal.getKey(), leases.renewed(renewal.getValue()), now);
            }
            outage.succeeded();
        } catch (RedisException e) {
            outage.failed(e);
        }
    }

    /** Notes the answer to a renewal of {@code leaseId} sent at {@code now}: a lease done or handed back since is left be. */
    private void renewed(String leaseId, Optional<Instant> deadline, long now) {
        if (deadline.isPresent()) {
            if (renewedAt.replace(leaseId, now) != null) {
                metrics.lease("renewed");
            }
        } else if (renewedAt.remove(leaseId) != null) {
            metrics.lease("lost");
            LOG.atWarn().addKeyValue("lease", leaseId).log("Lease expired before its request was done; it may be fetched twice");
        }
    }

    /** {@link #close(Duration) Closes}, waiting at most {@link #ACKS_OUT_WAIT} for the acknowledgements still out. */
    @Override
    public void close() {
        close(ACKS_OUT_WAIT);
    }

    /**
     * Stops renewing, waits at most {@code acksWait}, together, for a renewal in progress and the acknowledgements still
     * out (the node closes Redis next: one that waits for the call out would never be sent, and its page be crawled
     * again), and cuts the leases still held short, so that the reaper returns them at once; waits at most
     * {@link #HAND_BACK_WAIT} for those and for the hand-backs still out.
     */
    public void close(Duration acksWait) {
        long deadline = System.nanoTime() + acksWait.toNanos();
        closing = true;
        ticker.close(acksWait);
        awaitAcksOut(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        List<CompletableFuture<Void>> handedBack;
        synchronized (deadlines) {
            handedBack = new ArrayList<>(handBacksOut);
            // sent together, so that one Redis does not answer costs one command timeout, and does not keep the rest back
            renewedAt.keySet().forEach(leaseId -> handedBack.add(handBackAsync(leaseId)));
            renewedAt.clear();
        }
        try {
            CompletableFuture.allOf(handedBack.toArray(CompletableFuture[]::new)).get(HAND_BACK_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // counted below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long failed = handedBack.stream().filter(handBack -> !handBack.isDone() || handBack.isCompletedExceptionally()).count();
        if (failed > 0) {
            LOG.warn("Could not hand {} of {} leases back; they return to their queues when they expire", failed, handedBack.size());
        } else if (!handedBack.isEmpty()) {
            LOG.info("Handed {} leases back; the next lease reaper run returns their requests to their queues", handedBack.size());
        }
    }

    private CompletableFuture<Void> handBackAsync(String leaseId) {
        try {
            return leases.renewAsync(spiderId, leaseId, HAND_BACK).thenRun(() -> metrics.lease("returned"));
        } catch (RedisException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private void awaitAcksOut(Duration wait) {
        try {
            CompletableFuture.allOf(acksOut.toArray(CompletableFuture[]::new)).get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            // each failure is told to the caller of acknowledge
        } catch (TimeoutException e) {
            LOG.warn("Closing with {} acknowledgements unanswered; their pages may be crawled again", acksOut.size());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
