package org.scrapycluster.crawler.scheduler;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.queue.HandOut;
import org.scrapycluster.common.queue.LeaseHolder;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.queue.ThrottleSpec;
import org.scrapycluster.common.queue.ThrottledQueue;
import org.scrapycluster.common.redis.OutageReporter;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses what this node fetches next (docs/compatibility.md §4.2–4.4, docs/architecture.md, guarantees 1–3). Domains with work
 * (from {@link Discovery}) wait in a {@link ReadinessIndex} ordered by when this node may next hit them;
 * whenever the concurrency limits allow, the scheduler takes the domain that is ready soonest and asks
 * Redis for a leased hand-out under the domain's throttle, without blocking (several calls in flight,
 * so round trips overlap). The answer drives the index: a hand-out dispatches the request and makes the
 * domain ready again now (or after the moderation spacing); Wait reschedules it at now + the wait;
 * Empty drops it (discovery brings it back when work arrives); Paused reschedules it after the window.
 * Domains on the ZooKeeper blacklist are parked, untouched, until the blacklist changes. Requests within
 * a domain come out by priority (the queue's order).
 *
 * <p>All state is confined to the scheduler thread; other threads talk to it through events.
 */
public final class Scheduler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);
    private static final long IDLE_WAKE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final String spiderId;
    private final ThrottledQueue throttledQueue;
    private final DomainThrottles throttles;
    private final Predicate<String> blacklisted;
    private final LeaseHolder holder;
    private final SchedulerLimits limits;
    private final CrawlerMetrics metrics;
    private final Consumer<LeasedRequest> dispatch;
    private final BlockingQueue<Runnable> events = new LinkedBlockingQueue<>();
    private final OutageReporter outage = new OutageReporter(LOG, "Handing out requests");
    private final Thread thread;

    // Confined to the scheduler thread.
    private final ReadinessIndex index = new ReadinessIndex();
    private final Map<String, DomainState> domains = new HashMap<>();
    private final Set<String> parked = new HashSet<>();
    private int inFlight;
    private int handOutCalls;
    private volatile boolean closed;

    /**
     * @param spiderId       the spider whose queues this node serves
     * @param throttledQueue the hand-out script
     * @param throttles      the throttle spec of each domain
     * @param blacklisted    whether a domain is on the ZooKeeper blacklist
     * @param holder         lease holder ids of this node
     * @param limits         concurrency and lease limits
     * @param metrics        the node's meters
     * @param dispatch       receives every handed-out request; {@link #finished} must follow for each
     */
    public Scheduler(String spiderId, ThrottledQueue throttledQueue, DomainThrottles throttles, Predicate<String> blacklisted,
            LeaseHolder holder, SchedulerLimits limits, CrawlerMetrics metrics, Consumer<LeasedRequest> dispatch) {
        this.spiderId = spiderId;
        this.throttledQueue = throttledQueue;
        this.throttles = throttles;
        this.blacklisted = blacklisted;
        this.holder = holder;
        this.limits = limits;
        this.metrics = metrics;
        this.dispatch = dispatch;
        this.thread = Thread.ofPlatform().name("crawler-scheduler-" + spiderId).daemon().unstarted(this::run);
    }

    /** The liveness check of the scheduling loop: up while its thread runs. */
    public Health liveness() {
        return Health.ofLoop(thread);
    }

    /** Starts scheduling on its own thread. */
    public void start() {
        thread.start();
    }

    /** Domains that have (or may have) work; unknown ones become ready now. Thread-safe. */
    public void domainsFound(Collection<String> found) {
        if (!found.isEmpty()) {
            List<String> copy = List.copyOf(found);
            events.add(() -> copy.forEach(this::found));
        }
    }

    /** A request of {@code domain} is done (acknowledged or abandoned): its slot is free. Thread-safe. */
    public void finished(String domain) {
        events.add(() -> release(domain, true));
    }

    /** The throttles or the blacklist changed: every domain is reconsidered now. Thread-safe. */
    public void configChanged() {
        events.add(() -> {
            long now = System.nanoTime();
            index.advanceAllTo(now);
            for (String domain : List.copyOf(parked)) {
                if (!blacklisted.test(domain)) {
                    parked.remove(domain);
                    index.schedule(domain, now);
                }
            }
        });
    }

    private void run() {
        try {
            while (!closed) {
                for (Runnable event = events.poll(); event != null; event = events.poll()) {
                    event.run();
                }
                long now = System.nanoTime();
                handOutReady(now);
                Runnable next = events.poll(waitNanos(now), TimeUnit.NANOSECONDS);
                if (next != null) {
                    next.run();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("The scheduler stopped on an unexpected error", e);
        }
    }

    private long waitNanos(long now) {
        if (inFlight >= limits.maxInFlight() || handOutCalls >= limits.maxHandOutCalls()) {
            return IDLE_WAKE_NANOS;
        }
        OptionalLong next = index.nextReadyAt();
        return next.isPresent() ? Math.max(0, Math.min(IDLE_WAKE_NANOS, next.getAsLong() - now)) : IDLE_WAKE_NANOS;
    }

    private void found(String domain) {
        DomainState state = domains.get(domain);
        if (state != null && state.handingOut) {
            state.rediscovered = true;
        } else if (state != null && state.waitingForSlot || index.contains(domain) || parked.contains(domain)) {
            return;
        } else {
            index.schedule(domain, System.nanoTime());
        }
    }

    private void handOutReady(long now) {
        while (inFlight < limits.maxInFlight() && handOutCalls < limits.maxHandOutCalls()) {
            Optional<String> ready = index.pollReady(now);
            if (ready.isEmpty()) {
                return;
            }
            String domain = ready.get();
            if (blacklisted.test(domain)) {
                parked.add(domain);
                continue;
            }
            DomainState state = domains.computeIfAbsent(domain, d -> new DomainState());
            if (state.inFlight >= (throttles.awaitsRobots(domain) ? 1 : limits.maxPerDomain())) {
                state.waitingForSlot = true;
                continue;
            }
            requestHandOut(domain, state);
        }
    }

    private void requestHandOut(String domain, DomainState state) {
        ThrottleSpec spec = throttles.specFor(domain);
        QueueKey queue = new QueueKey(spiderId, domain);
        state.inFlight++;
        state.handingOut = true;
        inFlight++;
        metrics.inFlight().incrementAndGet();
        handOutCalls++;
        throttledQueue.handOutAsync(queue, spec, limits.lease(), holder.next())
                .whenComplete((answer, failure) -> events.add(() -> answered(queue, spec, answer, failure)));
    }

    private void answered(QueueKey queue, ThrottleSpec spec, HandOut answer, Throwable failure) {
        String domain = queue.domain();
        DomainState state = domains.get(domain);
        handOutCalls--;
        state.handingOut = false;
        boolean rediscovered = state.rediscovered;
        state.rediscovered = false;
        long now = System.nanoTime();
        if (failure != null) {
            metrics.handOut("failed");
            outage.failed(failure);
            release(domain, false);
            index.schedule(domain, now + limits.retryAfterFailure().toNanos());
            return;
        }
        outage.succeeded();
        switch (answer) {
            case HandOut.HandedOut handed -> {
                metrics.handOut("handed_out");
                index.schedule(domain, now + spec.spacing().map(Duration::toNanos).orElse(0L));
                dispatch.accept(new LeasedRequest(queue, handed.member(), handed.leaseId().orElseThrow(), spec));
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
        }
    }

    /** Frees a slot of {@code domain}; after a finished request, a domain waiting for a slot is ready again. */
    private void release(String domain, boolean requestFinished) {
        DomainState state = domains.get(domain);
        if (state == null) {
            return;
        }
        state.inFlight--;
        inFlight--;
        metrics.inFlight().decrementAndGet();
        if (requestFinished && state.waitingForSlot) {
            state.waitingForSlot = false;
            index.schedule(domain, System.nanoTime());
        }
        if (state.inFlight == 0 && !state.handingOut && !state.waitingForSlot) {
            domains.remove(domain);
        }
    }

    /** Stops handing out; requests in flight go on and are finished by their holders. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What the scheduler knows of one domain with requests in flight. */
    private static final class DomainState {
        private int inFlight;
        private boolean handingOut;
        private boolean waitingForSlot;
        private boolean rediscovered;
    }
}
