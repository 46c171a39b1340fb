package org.scrapycluster.crawler.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.queue.HandOut;
import org.scrapycluster.common.queue.LeaseHolder;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.queue.ThrottleSpec;
import org.scrapycluster.common.queue.ThrottledQueue;
import org.scrapycluster.common.redis.BatchedCalls;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses what this node fetches next (docs/compatibility.md §4.2–4.4, docs/architecture.md, guarantees 1–3). Domains with work
 * (from {@link Discovery}) wait in a {@link ReadinessIndex} ordered by when this node may next hit them;
 * whenever the concurrency limits allow, the scheduler takes the domain that is ready soonest and asks
 * Redis for a leased hand-out under the domain's throttle, without blocking; the domains that become ready
 * while one hand-out call is out are asked for together in the next ({@link BatchedCalls}). The answer drives the index: a hand-out dispatches the request and makes the
 * domain ready again now (or after the moderation spacing); Wait reschedules it at now + the wait;
 * Empty drops it (discovery brings it back when work arrives); Paused reschedules it after the window;
 * Failed (Redis failed that domain's decision alone: a key of the wrong type) is logged when the domain starts and
 * stops failing, and asks for it again after {@code retryAfterFailure}, while the domains asked for with it are served.
 * Domains held back — on the ZooKeeper blacklist, or every domain while the ZooKeeper domain config has not been read
 * yet ({@link DomainConfigFollower#holdsBack}) — are parked, untouched, until the config changes. A domain the node
 * holds ({@link SchedulerInbox#hold}: its requests wait for their host's robots.txt) is not asked for until the hold
 * ends, whatever Redis would answer. A domain has at most {@code CONCURRENT_REQUESTS_PER_DOMAIN} requests in flight on
 * the node, one while its robots.txt is unread, and fewer for a while after a fetch of it was slow
 * ({@link SlowDomains}); such slow domains together have at most half the node's, and wait for them in turn. Requests within
 * a domain come out by priority (the queue's order). While results cannot be published (Kafka is away), the
 * node keeps a single request in flight instead of fetching pages it would have to give back, and asks for a hand-out
 * at most every {@link #STALLED_SPACING} (docs/operations.md, "Outages"). A domain whose hand-out call failed (Redis
 * away) waits with the others whose calls failed; one of them is asked for again each {@code retryAfterFailure}, and
 * all of them once a call is answered. A hand-out call that failed (timed out, or its connection dropped) may have run
 * in Redis all the same: once Redis answers again, the leases it may have made are cut short, so that the reaper
 * returns their requests at once rather than when the leases end (docs/operations.md, "Nothing lost").
 *
 * <p>All state is confined to the thread that runs the scheduler: its own loop once {@link #start started}, or a test
 * that calls {@link #turn} and {@link #awaitEvent} itself. Other threads talk to it through its {@link SchedulerInbox}.
 * Times come from the given clock, so a test moves them by hand.
 */
public final class Scheduler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);
    private static final long IDLE_WAKE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    /**
     * While results cannot be published, the least time between two hand-outs the node asks for: a result that fails at
     * once (Kafka refusing the node's credentials, where an away Kafka takes its timeout to fail) would otherwise have a
     * page fetched, and given back, as fast as its site answers.
     */
    static final Duration STALLED_SPACING = Duration.ofSeconds(10);
    /** The longest {@link #close()} waits for the answers of the hand-out calls still out. */
    public static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
    /** The fewest holds kept before those that ended are dropped, and half the fewest after which it is done again. */
    private static final int MIN_HOLDS_PRUNED_AT = 64;
    /** The most lease holders one call cuts short, so that no call holds Redis long or carries a huge argument list. */
    private static final int MAX_HOLDERS_PER_CUT = 1_000;
    /** The most hand-out decisions asked for in one script call. */
    private static final int MAX_DECISIONS_PER_CALL = 64;

    private final String spiderId;
    private final ThrottledQueue throttledQueue;
    private final BatchedCalls<ThrottledQueue.Decision, HandOut> handOuts;
    private final DomainThrottles throttles;
    private final Predicate<String> heldBack;
    private final LeaseHolder holder;
    private final SchedulerLimits limits;
    private final CrawlerMetrics metrics;
    private final SchedulerInbox inbox;
    private final InstantSource clock;
    private final Consumer<LeasedRequest> dispatch;
    private final OutageReporter outage = new OutageReporter(LOG, "Handing out requests");
    /** Holders of the hand-outs whose calls failed, whose leases are to be cut short once Redis answers again. */
    private final Queue<String> unanswered = new ConcurrentLinkedQueue<>();
    private volatile Thread thread;

    // Confined to the scheduling thread.
    private final ReadinessIndex index = new ReadinessIndex();
    private final Map<String, DomainState> domains = new HashMap<>();
    private final Set<String> parked = new HashSet<>();
    /** When the hold of each domain held on this node ends ({@link SchedulerInbox#hold}), on the scheduler's clock. */
    private final Map<String, Long> holds = new HashMap<>();
    /** How many holds were kept when those that ended were last dropped ({@link #hold}). */
    private int holdsPrunedAt = MIN_HOLDS_PRUNED_AT;
    /** Domains a fetch of which was slow lately, each held to fewer requests in flight than the per-domain limit. */
    private final SlowDomains slow;
    /** Slow domains waiting for a slot of those slow domains may hold together ({@link #maxSlowInFlight}), in turn. */
    private final Set<String> waitingForSlowSlot = new LinkedHashSet<>();
    /** Domains whose last decision failed in Redis, so that a failing domain is logged once, not at every retry. */
    private final Set<String> failing = new HashSet<>();
    /**
     * Domains whose hand-out call failed while Redis was away, in that order: one of them is asked for again each
     * {@code retryAfterFailure} ({@link #askOneAwaitingRedis}), all of them at once as soon as a call is answered, so an
     * outage costs a call a second rather than one for every domain of the node (50,000 calls a second on a broad crawl,
     * each leaving a lease holder to cut short).
     */
    private final Set<String> awaitingRedis = new LinkedHashSet<>();
    /** When the next of {@link #awaitingRedis} is asked for, on the scheduler's clock. */
    private long nextAskAwaitingRedis;
    private int inFlight;
    /** Requests in flight that were handed out while their domain was slow. */
    private int slowInFlight;
    private int handOutsAwaited;
    private boolean publishingStalled;
    /** While results cannot be published, when the next hand-out may be asked for ({@link #STALLED_SPACING}). */
    private long stalledHandOutAt;
    private volatile boolean closed;

    /**
     * @param spiderId       the spider whose queues this node serves
     * @param throttledQueue the hand-out script
     * @param throttles      the throttle spec of each domain
     * @param heldBack       whether no request of a domain may be handed out (on the ZooKeeper blacklist, or no config read yet)
     * @param holder         lease holder ids of this node
     * @param limits         concurrency and lease limits
     * @param metrics        the node's meters
     * @param inbox          where found domains, finished requests and config changes arrive
     * @param clock          the time the readiness of domains is reckoned in; only its differences count, so a
     *                       monotonic source suits (the node passes {@link System#nanoTime} as instants)
     * @param dispatch       receives every handed-out request; {@link SchedulerInbox#finished} must follow for each
     */
    public Scheduler(String spiderId, ThrottledQueue throttledQueue, DomainThrottles throttles, Predicate<String> heldBack,
            LeaseHolder holder, SchedulerLimits limits, CrawlerMetrics metrics, SchedulerInbox inbox, InstantSource clock,
            Consumer<LeasedRequest> dispatch) {
        this.spiderId = spiderId;
        this.throttledQueue = throttledQueue;
        this.handOuts = new BatchedCalls<>(throttledQueue::decideAll, MAX_DECISIONS_PER_CALL);
        this.throttles = throttles;
        this.heldBack = heldBack;
        this.holder = holder;
        this.limits = limits;
        this.slow = new SlowDomains(limits.maxPerDomain());
        this.metrics = metrics;
        this.inbox = inbox;
        this.clock = clock;
        this.dispatch = dispatch;
    }

    /** The liveness check of the scheduling loop: up while its thread runs. */
    public Health liveness() {
        Thread loop = thread;
        return loop == null ? Health.down("not started") : Health.ofLoop(loop);
    }

    /**
     * Starts scheduling on its own thread.
     *
     * @param failed told of the failure that ended the loop (a bug, the JVM out of memory, a class the jar lacks),
     *               after which the node hands out nothing more; the node ends the process on it
     */
    public synchronized void start(Consumer<Throwable> failed) {
        if (thread != null) {
            throw new IllegalStateException("the scheduler of " + spiderId + " is already started");
        }
        thread = Thread.ofPlatform().name("crawler-scheduler-" + spiderId).daemon().start(() -> run(failed));
    }

    /**
     * One turn of the loop: runs the events that arrived, then asks for work of the ready domains as far as
     * the limits allow.
     *
     * @return nanoseconds until the next domain becomes ready (at most half a second)
     */
    long turn() {
        for (SchedulerInbox.Event event = inbox.poll(); event != null; event = inbox.poll()) {
            handle(event);
        }
        long now = now();
        metrics.slowDomains(slow.count(now));
        askOneAwaitingRedis(now);
        handOutReady(now);
        return waitNanos(now);
    }

    /** Waits at most {@code nanos} for an event and runs it; false when none came. */
    boolean awaitEvent(long nanos) throws InterruptedException {
        SchedulerInbox.Event event = inbox.poll(nanos);
        if (event != null) {
            handle(event);
        }
        return event != null;
    }

    /** Whether hand-out decisions were asked for whose answers have not been run yet. */
    boolean awaitingAnswers() {
        return handOutsAwaited > 0;
    }

    private void run(Consumer<Throwable> failed) {
        try {
            while (!closed) {
                awaitEvent(turn());
            }
            // the hand-out calls still out may lease requests: their answers dispatch them, so that each is worked on
            // and its lease acknowledged or handed back, rather than left leased until it expires
            while (awaitingAnswers()) {
                awaitEvent(IDLE_WAKE_NANOS);
            }
            // and the calls whose answers were lost may have leased requests too: no later answer will cut them short,
            // so the loop waits for this cut, for up to CLOSE_WAIT, which close's own wait for the loop usually covers
            cutShortUnanswered().get(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("Could not cut short the leases of hand-out calls whose answers were lost ({}); they end when they expire",
                    e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            failed.accept(e);
        }
    }

    private void handle(SchedulerInbox.Event event) {
        switch (event) {
            case SchedulerInbox.DomainsFound found -> found.domains().forEach(this::found);
            case SchedulerInbox.Finished finished -> {
                slow.finished(finished.domain(), finished.lastFetch(), now());
                release(finished.domain(), true);
            }
            case SchedulerInbox.Held held -> hold(held.domain(), held.time());
            case SchedulerInbox.ConfigChanged changed -> reconsider(changed.domains());
            case SchedulerInbox.PublishingStalled stalled -> {
                publishingStalled = stalled.stalled();
                stalledHandOutAt = now();
            }
            case SchedulerInbox.Answered answered -> answered(answered.queue(), answered.spec(), answered.answer(),
                    answered.failure());
            case SchedulerInbox.Closing closing -> {
                // only wakes the loop, which sees that it is closed
            }
        }
    }

    /**
     * Holds {@code domain} on this node for {@code time}. A hold is forgotten when its domain is next asked for after
     * it ends; the holds of domains never asked for again (a Retry-After on a domain's last request) are dropped once
     * they have ended, whenever the holds have doubled since that was last done, so they do not pile up over a node's
     * life.
     */
    private void hold(String domain, Duration time) {
        long now = now();
        if (holds.size() >= holdsPrunedAt * 2) {
            holds.values().removeIf(until -> until - now <= 0);
            holdsPrunedAt = Math.max(MIN_HOLDS_PRUNED_AT, holds.size());
        }
        holds.merge(domain, now + time.toNanos(), Math::max);
    }

    /** The domains held on this node now or until they are next asked for ({@link #hold}): for tests. */
    int holdsKept() {
        return holds.size();
    }

    /**
     * The domain config changed: each of {@code throttled}, whose throttle changed, is ready now, and one whose hand-out
     * call is out is ready as soon as it is answered, whatever the answer under the old config says; parked domains no
     * longer held back are ready too. The other domains keep their times: an edit of one domain's throttle costs no
     * hand-out decision for each of a broad crawl's million domains.
     */
    private void reconsider(Set<String> throttled) {
        long now = now();
        for (String domain : throttled) {
            index.advanceTo(domain, now);
            DomainState state = domains.get(domain);
            if (state != null && state.handingOut) {
                state.reconsider = true;
            }
        }
        for (String domain : List.copyOf(parked)) {
            if (!heldBack.test(domain)) {
                parked.remove(domain);
                index.schedule(domain, now);
            }
        }
    }

    /** The clock's time in nanoseconds since its epoch. */
    private long now() {
        Instant now = clock.instant();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** Requests the node may have in flight now: its limit, or one while results cannot be published. */
    private int maxInFlight() {
        return publishingStalled ? 1 : limits.maxInFlight();
    }

    /** Whether results cannot be published and the next hand-out is not due yet ({@link #STALLED_SPACING}). */
    private boolean spacedWhileStalled(long now) {
        return publishingStalled && stalledHandOutAt - now > 0;
    }

    private long waitNanos(long now) {
        if (inFlight >= maxInFlight() || handOutsAwaited >= limits.maxHandOutsAwaited()) {
            return IDLE_WAKE_NANOS;
        }
        if (spacedWhileStalled(now)) {
            return Math.min(IDLE_WAKE_NANOS, stalledHandOutAt - now);
        }
        OptionalLong next = index.nextReadyAt();
        long wait = next.isPresent() ? Math.max(0, Math.min(IDLE_WAKE_NANOS, next.getAsLong() - now)) : IDLE_WAKE_NANOS;
        return awaitingRedis.isEmpty() ? wait : Math.max(0, Math.min(wait, nextAskAwaitingRedis - now));
    }

    /** While Redis is away, one of the domains whose calls failed is asked for again each {@code retryAfterFailure}. */
    private void askOneAwaitingRedis(long now) {
        if (awaitingRedis.isEmpty() || now - nextAskAwaitingRedis < 0) {
            return;
        }
        String domain = awaitingRedis.iterator().next();
        awaitingRedis.remove(domain);
        index.schedule(domain, now);
        nextAskAwaitingRedis = now + limits.retryAfterFailure().toNanos();
    }

    /** Redis answers a hand-out call again: every domain whose call failed while it was away is ready now. */
    private void resumeAwaitingRedis(long now) {
        awaitingRedis.forEach(domain -> index.schedule(domain, now));
        awaitingRedis.clear();
    }

    private void found(String domain) {
        DomainState state = domains.get(domain);
        if (state != null && state.handingOut) {
            state.rediscovered = true;
        } else if (state != null && state.waitingForSlot || index.contains(domain) || parked.contains(domain)
                || waitingForSlowSlot.contains(domain) || awaitingRedis.contains(domain)) {
            return;
        } else {
            index.schedule(domain, now());
        }
    }

    private void handOutReady(long now) {
        while (inFlight < maxInFlight() && handOutsAwaited < limits.maxHandOutsAwaited() && !spacedWhileStalled(now)) {
            Optional<String> ready = index.pollReady(now);
            if (ready.isEmpty()) {
                return;
            }
            String domain = ready.get();
            if (heldBack.test(domain)) {
                parked.add(domain);
                continue;
            }
            if (heldUntilLater(domain, now)) {
                continue;
            }
            DomainState state = domains.get(domain);
            OptionalInt slowLimit = slow.limit(domain, now);
            if (state != null && state.inFlight >= domainLimit(domain, slowLimit)) {
                state.waitingForSlot = true;
                continue;
            }
            if (slowLimit.isPresent() && slowInFlight >= maxSlowInFlight()) {
                waitingForSlowSlot.add(domain);
                continue;
            }
            if (state == null) {
                state = new DomainState();
                domains.put(domain, state);
            }
            requestHandOut(domain, state, slowLimit.isPresent());
            if (publishingStalled) {
                stalledHandOutAt = now + STALLED_SPACING.toNanos();
            }
        }
    }

    /**
     * Requests {@code domain} may have in flight on this node: one while its robots.txt is unread, the slow domain's
     * limit while it is slow ({@code slowLimit}), else the per-domain limit.
     */
    private int domainLimit(String domain, OptionalInt slowLimit) {
        return throttles.awaitsRobots(domain) ? 1 : slowLimit.orElse(limits.maxPerDomain());
    }

    /** Requests that slow domains may have in flight together: half the node's, so that the other domains keep the rest. */
    private int maxSlowInFlight() {
        return Math.max(1, maxInFlight() / 2);
    }

    /** Whether {@code domain} is held on this node past {@code now}: then it is ready again when the hold ends. */
    private boolean heldUntilLater(String domain, long now) {
        Long until = holds.get(domain);
        if (until == null) {
            return false;
        }
        if (until - now > 0) {
            index.schedule(domain, until);
            return true;
        }
        holds.remove(domain);
        return false;
    }

    private void requestHandOut(String domain, DomainState state, boolean slowDomain) {
        ThrottleSpec spec = throttles.specFor(domain);
        QueueKey queue = new QueueKey(spiderId, domain);
        state.inFlight++;
        if (slowDomain) {
            state.slowInFlight++;
            slowInFlight++;
        }
        state.handingOut = true;
        state.handOutSlow = slowDomain;
        inFlight++;
        metrics.inFlight().incrementAndGet();
        handOutsAwaited++;
        String leaseHolder = holder.next();
        handOuts.call(ThrottledQueue.Decision.lease(queue, spec, limits.lease(), leaseHolder))
                .whenComplete((answer, failure) -> {
                    if (failure != null) {
                        unanswered.add(leaseHolder);
                    }
                    inbox.answered(queue, spec, answer, failure);
                });
    }

    private void answered(QueueKey queue, ThrottleSpec spec, HandOut answer, Throwable failure) {
        String domain = queue.domain();
        DomainState state = domains.get(domain);
        handOutsAwaited--;
        state.handingOut = false;
        boolean rediscovered = state.rediscovered;
        state.rediscovered = false;
        boolean reconsider = state.reconsider;
        state.reconsider = false;
        long now = now();
        if (failure != null) {
            metrics.handOut("failed");
            outage.failed(failure);
            release(domain, false);
            awaitingRedis.add(domain);
            nextAskAwaitingRedis = now + limits.retryAfterFailure().toNanos();
            return;
        }
        outage.succeeded();
        cutShortUnanswered();
        resumeAwaitingRedis(now);
        if (!(answer instanceof HandOut.Failed) && failing.remove(domain)) {
            LOG.info("Hand-out decisions for domain {} work again", domain);
        }
        switch (answer) {
            case HandOut.HandedOut handed -> {
                metrics.handOut("handed_out");
                index.schedule(domain, now + spec.spacing().map(Duration::toNanos).orElse(0L));
                dispatch.accept(new LeasedRequest(queue, handed.member(), handed.score(), handed.leaseId().orElseThrow(), spec, handed.at()));
            }
            case HandOut.Wait wait -> {
                metrics.handOut("wait");
                metrics.throttleWait();
                release(domain, false);
                index.schedule(domain, now + wait.delay().toNanos());
            }
            case HandOut.Empty empty -> {
                metrics.handOut("empty");
                release(domain, false);
                if (rediscovered) {
                    index.schedule(domain, now);
                }
            }
            case HandOut.Paused paused -> {
                metrics.handOut("paused");
                release(domain, false);
                index.schedule(domain, now + Math.round(spec.windowSeconds() * 1e9));
            }
            case HandOut.Failed failed -> {
                metrics.handOut("domain_error");
                if (failing.add(domain)) {
                    LOG.error("Hand-out decisions for domain {} fail in Redis: {}; its requests stay queued, other domains"
                            + " are served, and it is asked for again every {} until its keys are repaired",
                            domain, failed.reason(), limits.retryAfterFailure());
                }
                release(domain, false);
                index.schedule(domain, now + limits.retryAfterFailure().toNanos());
            }
        }
        if (reconsider && (answer instanceof HandOut.HandedOut || answer instanceof HandOut.Wait || answer instanceof HandOut.Paused)) {
            index.schedule(domain, now); // decided under the config before the change
        }
    }

    /**
     * Redis answers hand-out calls again: cuts short the leases the failed ones may have made. The cut goes out after
     * them on the same connection, so Redis has run them, or never will, when it runs the cut. Holders whose cut fails
     * wait for the next answer. The holders go {@value #MAX_HOLDERS_PER_CUT} a call.
     */
    private CompletableFuture<?> cutShortUnanswered() {
        if (unanswered.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        List<String> holders = new ArrayList<>();
        for (String lost = unanswered.poll(); lost != null; lost = unanswered.poll()) {
            holders.add(lost);
        }
        List<CompletableFuture<?>> cuts = new ArrayList<>();
        for (int from = 0; from < holders.size(); from += MAX_HOLDERS_PER_CUT) {
            cuts.add(cutShort(List.copyOf(holders.subList(from, Math.min(holders.size(), from + MAX_HOLDERS_PER_CUT)))));
        }
        return CompletableFuture.allOf(cuts.toArray(CompletableFuture[]::new));
    }

    /** Cuts short the leases of {@code holders}; they wait for the next answer when the cut fails. */
    private CompletableFuture<?> cutShort(List<String> holders) {
        return throttledQueue.cutShortUnanswered(spiderId, holder, holders).whenComplete((cut, failure) -> {
            if (failure != null) {
                unanswered.addAll(holders);
            } else if (cut > 0) {
                metrics.leasesCutShort(cut);
                LOG.info("Cut short the leases of hand-out calls whose answers were lost: {}; their requests go back to"
                        + " their queues at the next reap", cut);
            }
        });
    }

    /**
     * Frees a slot of {@code domain}: a finished request's, or that of a hand-out call answered without a request; after a
     * finished request, a domain waiting for a slot is ready again. A slot of those slow domains share is freed by the
     * call's answer when the call was made while the domain was slow, and by a finished request only when the domain's
     * requests left are fewer than those counted as handed out while it was slow (those handed out before it was slow
     * are taken to finish first, so that slow domains never hold more than their share of the node's slots). A call out
     * is a slot of the domain's but no request: one made since the domain stopped being slow is not counted among the
     * requests left, or a request handed out while it was slow that ends during that call would keep its slow slot for
     * good.
     */
    private void release(String domain, boolean requestFinished) {
        DomainState state = domains.get(domain);
        if (state == null) {
            return;
        }
        state.inFlight--;
        inFlight--;
        metrics.inFlight().decrementAndGet();
        int quickCallOut = state.handingOut && !state.handOutSlow ? 1 : 0;
        if (requestFinished ? state.slowInFlight > state.inFlight - quickCallOut : state.handOutSlow) {
            state.slowInFlight--;
            slowInFlight--;
            wakeWaitingForSlowSlot();
        }
        if (requestFinished && state.waitingForSlot) {
            state.waitingForSlot = false;
            index.schedule(domain, now());
        }
        if (state.inFlight == 0 && !state.handingOut && !state.waitingForSlot) {
            domains.remove(domain);
        }
    }

    /**
     * A slot of those slow domains may hold together is free: every slow domain waiting for one is ready again, and
     * those that find the slots taken once more wait again. All of them, rather than the first: the first may turn out
     * to be slow no longer, or to have no work, and leave the slot to nobody.
     */
    private void wakeWaitingForSlowSlot() {
        if (waitingForSlowSlot.isEmpty()) {
            return;
        }
        long now = now();
        waitingForSlowSlot.forEach(domain -> index.schedule(domain, now));
        waitingForSlowSlot.clear();
    }

    /** {@link #close(Duration) Closes}, waiting at most {@link #CLOSE_WAIT}. */
    @Override
    public void close() {
        close(CLOSE_WAIT);
    }

    /**
     * Stops handing out; the answers of hand-out calls still out are dispatched (waiting at most {@code wait}), and
     * requests in flight go on and are finished by their holders.
     */
    public void close(Duration wait) {
        closed = true;
        Thread loop = thread;
        if (loop == null) {
            return;
        }
        inbox.closing();
        try {
            loop.join(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What the scheduler knows of one domain with requests in flight. */
    private static final class DomainState {
        private int inFlight;
        /**
         * Of those, the requests handed out while the domain was slow, as far as the scheduler can tell: a finished request
         * does not say how it was handed out, so the domain's others are taken to finish first.
         */
        private int slowInFlight;
        private boolean handingOut;
        /** The hand-out call out was made while the domain was slow. */
        private boolean handOutSlow;
        private boolean waitingForSlot;
        private boolean rediscovered;
        /** The config changed while its hand-out call was out. */
        private boolean reconsider;
    }
}
