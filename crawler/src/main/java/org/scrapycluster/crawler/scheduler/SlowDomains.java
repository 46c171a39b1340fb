package org.scrapycluster.crawler.scheduler;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The domains a fetch of which was slow on this node lately: it ran out of {@code DOWNLOAD_TIMEOUT}, or ended, failed or
 * answered, only after half of it (a DNS lookup whose servers do not answer, a connection reset after a long trickle, a
 * server that takes 8 s a page), as the fetches of origins that never answer, trickle, send headers forever or struggle
 * do. Each such fetch holds a slot that long, and again for every retry after it, so that a few of them with
 * {@code CONCURRENT_REQUESTS_PER_DOMAIN} requests each would hold all of a node's slots while the other domains wait
 * (docs/throttling.md, "Slow domains"). A slow domain's limit of requests in flight drops to one at each slow fetch and
 * grows by one with each fetch of it that ends in time (a request dropped, put back or cancelled before its fetch ended
 * says nothing of the domain, and changes nothing), so that a domain that answers now and then stays near one while most
 * of its fetches hang, and one that wakes up is back at the full limit after as many quick fetches; there it is no
 * longer slow. A domain is forgotten {@link #MEMORY} after its last slow fetch, so that the domains of a broad crawl that
 * failed once and are never asked for again do not pile up.
 *
 * <p>Confined to the scheduler's thread; times are its clock's nanoseconds.
 */
final class SlowDomains {

    /** How long a domain stays slow after its last slow fetch, unless enough fetches of it end in time sooner. */
    static final Duration MEMORY = Duration.ofMinutes(10);

    /** A slow domain's limit of requests in flight, and when it is forgotten. */
    private record Slow(int limit, long forgottenAt) {
    }

    private final int fullLimit;
    /** The slow domains in the order of their last slow fetches, so that the first is the first forgotten. */
    private final LinkedHashMap<String, Slow> slow = new LinkedHashMap<>();

    /** @param fullLimit the limit of a domain that is not slow ({@code CONCURRENT_REQUESTS_PER_DOMAIN}) */
    SlowDomains(int fullLimit) {
        this.fullLimit = fullLimit;
    }

    /** Notes how the last fetch of a request of {@code domain} that is done ended. */
    void finished(String domain, LastFetch lastFetch, long now) {
        if (slow.isEmpty() && lastFetch != LastFetch.SLOW) {
            return;
        }
        forgetExpired(now);
        if (lastFetch == LastFetch.NONE) {
            return;
        }
        if (lastFetch == LastFetch.SLOW) {
            slow.remove(domain);
            slow.put(domain, new Slow(1, now + MEMORY.toNanos()));
            return;
        }
        Slow known = slow.get(domain);
        if (known == null) {
            return;
        }
        if (known.limit() + 1 >= fullLimit) {
            slow.remove(domain);
        } else {
            slow.put(domain, new Slow(known.limit() + 1, known.forgottenAt()));
        }
    }

    /** {@code domain}'s limit of requests in flight while it is slow; empty when it is not. */
    OptionalInt limit(String domain, long now) {
        if (slow.isEmpty()) {
            return OptionalInt.empty();
        }
        Slow known = slow.get(domain);
        if (known == null) {
            return OptionalInt.empty();
        }
        if (known.forgottenAt() - now > 0) {
            return OptionalInt.of(known.limit());
        }
        slow.remove(domain);
        return OptionalInt.empty();
    }

    /** How many domains are slow at {@code now}; those forgotten by then are let go. */
    int count(long now) {
        if (!slow.isEmpty()) {
            forgetExpired(now);
        }
        return slow.size();
    }

    private void forgetExpired(long now) {
        Iterator<Map.Entry<String, Slow>> oldestFirst = slow.entrySet().iterator();
        while (oldestFirst.hasNext() && oldestFirst.next().getValue().forgottenAt() - now <= 0) {
            oldestFirst.remove();
        }
    }
}
