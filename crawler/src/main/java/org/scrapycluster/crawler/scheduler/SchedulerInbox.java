package org.scrapycluster.crawler.scheduler;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.scrapycluster.common.queue.HandOut;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.queue.ThrottleSpec;

/**
 * What the rest of a crawler node tells its {@link Scheduler}: domains found with work, requests finished,
 * a changed domain config, whether results are getting through, the answers of the hand-out calls, and (from the scheduler itself)
 * that it closes. It is made before the scheduler and the
 * parts that report to it, so the parts depend on the inbox and the scheduler on them, with no cycle.
 * Thread-safe; only the scheduler takes events out.
 */
public final class SchedulerInbox {

    /** One thing the scheduler learns. */
    sealed interface Event {
    }

    /** Domains that have (or may have) work. */
    record DomainsFound(List<String> domains) implements Event {
    }

    /** A request of the domain is done (acknowledged or abandoned): its slot is free; how its last fetch ended. */
    record Finished(String domain, LastFetch lastFetch) implements Event {
    }

    /** No request of the domain may be handed out on this node for {@code time} from now. */
    record Held(String domain, Duration time) implements Event {
    }

    /** The blacklist changed, or the throttles of {@code domains}. */
    record ConfigChanged(Set<String> domains) implements Event {
    }

    /** Results stopped getting through to the pipelines' stores, or started again. */
    record PublishingStalled(boolean stalled) implements Event {
    }

    /** A hand-out call came back with an answer, or with a failure. */
    record Answered(QueueKey queue, ThrottleSpec spec, HandOut answer, Throwable failure) implements Event {
    }

    /** The scheduler is closing. */
    record Closing() implements Event {
    }

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

    /** Domains that have (or may have) work; the scheduler ignores those it already knows. */
    public void domainsFound(Collection<String> found) {
        if (!found.isEmpty()) {
            events.add(new DomainsFound(List.copyOf(found)));
        }
    }

    /**
     * A request of {@code domain} is done (acknowledged or abandoned); {@code lastFetch} says how its last fetch ended:
     * a slow one makes the domain slow on this node, one in time makes it less so ({@link SlowDomains}).
     */
    public void finished(String domain, LastFetch lastFetch) {
        events.add(new Finished(domain, lastFetch));
    }

    /**
     * No request of {@code domain} is handed out on this node for {@code time} from now, whatever Redis answers: a
     * pause of the node's own, which only lengthens, held even when the domain's pause in Redis could not be set.
     */
    public void hold(String domain, Duration time) {
        events.add(new Held(domain, time));
    }

    /**
     * The domain config changed: the throttles of {@code domains} (those of every other domain are as they were), or the
     * blacklist, or the config was read for the first time. The domains of {@code domains} and the parked ones are
     * reconsidered.
     */
    public void configChanged(Set<String> domains) {
        events.add(new ConfigChanged(Set.copyOf(domains)));
    }

    /**
     * Results cannot be published now ({@code true}: the scheduler keeps one request in flight, to find out when
     * they can), or they can again ({@code false}: back to the node's concurrency).
     */
    public void publishingStalled(boolean stalled) {
        events.add(new PublishingStalled(stalled));
    }

    void closing() {
        events.add(new Closing());
    }

    void answered(QueueKey queue, ThrottleSpec spec, HandOut answer, Throwable failure) {
        events.add(new Answered(queue, spec, answer, failure));
    }

    /** The next event, if one is waiting. */
    Event poll() {
        return events.poll();
    }

    /** The next event, waiting at most {@code nanos} for one; null when none came. */
    Event poll(long nanos) throws InterruptedException {
        return events.poll(nanos, TimeUnit.NANOSECONDS);
    }
}
