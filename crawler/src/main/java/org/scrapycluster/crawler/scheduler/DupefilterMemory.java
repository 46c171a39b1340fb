package org.scrapycluster.crawler.scheduler;

import java.time.Duration;
import java.time.InstantSource;

import org.scrapycluster.common.queue.EnqueueOutcome;
import org.scrapycluster.common.url.Fingerprint;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * The request fingerprints this node has seen Redis put in, or find in, a crawl's dupefilter, so that the
 * links a page shares with pages already crawled — most of a crawl's links — are answered
 * {@link EnqueueOutcome#DUPLICATE} without being encoded or sent (docs/architecture.md "Filing a page's
 * links").
 *
 * <p>A fingerprint is trusted only while its dupefilter certainly still holds it: for half the dupefilter's
 * expiry ({@code DUPEFILTER_TIMEOUT}) after the last call of this node that used the dupefilter, since every
 * such call renews that expiry. Past that, the page's links go to Redis again, which renews the expiry as the
 * original's dupefilter does on every check, so a crawl's dupefilter never expires while it finds links. A
 * request answered from memory skips the crawl's stop and expiry checks; it would not have been queued either
 * way. The memory is a {@link FingerprintTable} of a given number of slots, where a fingerprint takes the place of
 * the one in its slot. A fingerprint is remembered for each dupefilter that holds it, so that two crawls over the same
 * pages do not take each other's places, by its first 64 bits ({@link Fingerprint#leading64()}) mixed with its
 * dupefilter's name: a number looked up without reading a string. Two entries that mix to the same number
 * cost a call to Redis, never a wrong answer: an entry names its dupefilter, and only that one is answered.
 */
public final class DupefilterMemory {

    /** The last time a call of this node renewed the expiry of the dupefilter {@code key}. */
    private static final class Renewal {
        final String key;
        volatile long at;

        Renewal(String key) {
            this.key = key;
        }
    }

    private final FingerprintTable<Renewal> fingerprints;
    private final Cache<String, Renewal> renewals;
    private final long trustMillis;
    private final InstantSource clock;

    /**
     * @param maxFingerprints the most fingerprints remembered, the slots of the table; 0 remembers none (every link goes
     *                        to Redis)
     * @param dupefilterTtl   the dupefilters' expiry, {@code DUPEFILTER_TIMEOUT}
     * @param clock           the time
     */
    public DupefilterMemory(int maxFingerprints, Duration dupefilterTtl, InstantSource clock) {
        this.trustMillis = dupefilterTtl.toMillis() / 2;
        this.clock = clock;
        this.fingerprints = new FingerprintTable<>(maxFingerprints);
        this.renewals = Caffeine.newBuilder().maximumSize(Math.min(maxFingerprints, 10_000)).executor(Runnable::run).build();
    }

    /** The fingerprints remembered, for the node's cache metrics. */
    public FingerprintTable<?> fingerprints() {
        return fingerprints;
    }

    /** The filing of one page's links, as of now. */
    public PageLookup page() {
        return new PageLookup(clock.millis());
    }

    /**
     * The filing of one page's links at one time, the clock read once: their look-ups, counted for the metrics once,
     * when the page is done ({@link #count}), rather than link by link; then, for those sent to Redis, the call's
     * start ({@link #sending}) and its answers ({@link #answered}), the call taken as sent at that time, which is
     * before it was: the memory trusts the call's renewal of a dupefilter's expiry no longer than it lasts.
     */
    public final class PageLookup {
        private final long now;
        private int hits;
        private int misses;

        private PageLookup(long now) {
            this.now = now;
        }

        /** Whether {@code fingerprint} is certainly in the dupefilter {@code key}: a hit when it is, else a miss. */
        public boolean holds(String key, long fingerprint) {
            Renewal renewal = fingerprints.get(entry(key, fingerprint));
            boolean held = renewal != null && now - renewal.at < trustMillis && renewal.key.equals(key);
            if (held) {
                hits++;
            } else {
                misses++;
            }
            return held;
        }

        /** Adds this page's hits and misses to the memory's counts. */
        public void count() {
            fingerprints.count(hits, misses);
        }

        /**
         * Notes that {@code fingerprint} is being sent to the dupefilter {@code key}. While the call is out, the same
         * fingerprint found on other pages is answered {@code DUPLICATE} when the dupefilter is known to be
         * alive: the call puts it there, unless its crawl is stopped or expired, and then those would not be
         * queued either. Should the call fail ({@link #failed}), its page is fetched again and files its links
         * again.
         */
        public void sending(String key, long fingerprint) {
            Renewal renewal = renewals.getIfPresent(key);
            if (renewal != null && now - renewal.at < trustMillis) {
                fingerprints.put(entry(key, fingerprint), renewal);
            }
        }

        /**
         * Learns from Redis' answer to a request whose {@code fingerprint} was checked against the dupefilter
         * {@code key}: every outcome but a stopped or expired crawl, or a key of another type in the way, means the
         * fingerprint is now in the dupefilter, whose expiry the call renewed (a request without crawl fields was not
         * sent).
         */
        public void answered(String key, long fingerprint, EnqueueOutcome outcome) {
            if (outcome == EnqueueOutcome.BLACKLISTED || outcome == EnqueueOutcome.EXPIRED || outcome == EnqueueOutcome.INVALID
                    || outcome == EnqueueOutcome.KEY_CONFLICT) {
                fingerprints.remove(entry(key, fingerprint));
                return;
            }
            Renewal renewal = renewals.get(key, Renewal::new);
            if (renewal.at < now) {
                renewal.at = now;
            }
            fingerprints.put(entry(key, fingerprint), renewal);
        }
    }

    /** Forgets what {@link PageLookup#sending} noted of {@code fingerprint}: its call failed, so it may not be in {@code key}. */
    public void failed(String key, long fingerprint) {
        fingerprints.remove(entry(key, fingerprint));
    }

    /**
     * The number {@code fingerprint} is remembered by in the dupefilter {@code key}: its bits, uniformly spread
     * as a digest's are, turned by a spread of the name's hash, so that each dupefilter has its own entry.
     */
    static long entry(String key, long fingerprint) {
        return fingerprint ^ key.hashCode() * 0x9E3779B97F4A7C15L;
    }
}
