package org.scrapycluster.crawler.scheduler;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The domains whose last fetch on this node ran out of {@code DOWNLOAD_TIMEOUT}: origins that never answer, trickle, or
 * send headers forever. Each holds a slot for the whole timeout, and for every retry after it, so that a few of them
 * with {@code CONCURRENT_REQUESTS_PER_DOMAIN} requests each would hold all of a node's slots while the other domains
 * wait; the {@link Scheduler} lets such a domain have one request in flight instead, until a fetch of it ends any other
 * way (docs/throttling.md, "Slow domains"). A domain is forgotten {@link #MEMORY} after its last timeout, so that the
 * domains of a broad crawl that timed out once and are never asked for again do not pile up.
 *
 * <p>Confined to the scheduler's thread; times are its clock's nanoseconds.
 */
final class SlowDomains {

    /** How long a domain counts as slow after its last timeout, unless a fetch of it ends otherwise sooner. */
    static final Duration MEMORY = Duration.ofMinutes(10);

    /** Each slow domain with the time it is forgotten, in the order of those times (each timeout moves it to the end). */
    private final LinkedHashMap<String, Long> forgottenAt = new LinkedHashMap<>();

    /** Notes how a request of {@code domain} ended: its last fetch timed out, or not. */
    void finished(String domain, boolean timedOut, long now) {
        if (forgottenAt.isEmpty() && !timedOut) {
            return;
        }
        forgetExpired(now);
        forgottenAt.remove(domain);
        if (timedOut) {
            forgottenAt.put(domain, now + MEMORY.toNanos());
        }
    }

    /** Whether {@code domain}'s last fetch timed out less than {@link #MEMORY} ago. */
    boolean isSlow(String domain, long now) {
        if (forgottenAt.isEmpty()) {
            return false;
        }
        Long until = forgottenAt.get(domain);
        if (until == null) {
            return false;
        }
        if (until - now > 0) {
            return true;
        }
        forgottenAt.remove(domain);
        return false;
    }

    /** How many domains are slow, as of the last {@link #finished} call. */
    int size() {
        return forgottenAt.size();
    }

    private void forgetExpired(long now) {
        Iterator<Map.Entry<String, Long>> oldestFirst = forgottenAt.entrySet().iterator();
        while (oldestFirst.hasNext() && oldestFirst.next().getValue() - now <= 0) {
            oldestFirst.remove();
        }
    }
}
