package org.scrapycluster.common.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.scrapycluster.common.keyspace.Keyspace;

/**
 * One request to file into a domain queue with {@link Enqueuer}.
 *
 * @param queue         the domain queue
 * @param member        the JSON member, either shape of docs/compatibility.md §4.4.1
 * @param fields        its crawl fields, sent beside it; empty when the member has none, and then it is
 *                      refused as {@link EnqueueOutcome#INVALID} without reaching Redis
 * @param dupefilter    when present, the request is refused if its fingerprint was seen by the crawl
 * @param writeTimeout  whether to {@code SET timeout:<spiderid>:<appid>:<crawlid>} to the crawl's
 *                      {@code expires} when it is not 0 (the Kafka monitor does, for seeds), also when
 *                      the request is not queued again ({@link EnqueueResult#timeoutWritten})
 * @param pageLimits    page-limit counters the request must pass, at most two (a crawl's
 *                      {@code domain_max_pages} and {@code GLOBAL_PAGE_PER_DOMAIN_LIMIT})
 * @param domainRefused whether the request is refused because its domain is blacklisted (the
 *                      crawler decides from its ZooKeeper config); checked in the original's order
 */
public record EnqueueRequest(QueueKey queue, String member, Optional<CrawlFields> fields, Optional<Dupefilter> dupefilter,
        boolean writeTimeout, List<PageLimit> pageLimits, boolean domainRefused) {

    /** The most page limits one request can carry. */
    public static final int MAX_PAGE_LIMITS = 2;

    public EnqueueRequest {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(fields, "fields");
        Objects.requireNonNull(dupefilter, "dupefilter");
        pageLimits = List.copyOf(pageLimits);
        if (pageLimits.size() > MAX_PAGE_LIMITS) {
            throw new IllegalArgumentException("at most " + MAX_PAGE_LIMITS + " page limits per request, got " + pageLimits.size());
        }
    }

    /** A request of the crawl {@code fields}, with no dupefilter check, timeout key or page limit. */
    public static EnqueueRequest of(QueueKey queue, String member, CrawlFields fields) {
        return new EnqueueRequest(queue, member, Optional.of(fields), Optional.empty(), false, List.of(), false);
    }

    /** {@link #of(QueueKey, String, CrawlFields)} with the crawl fields read from the member ({@link CrawlFields#ofMember}). */
    public static EnqueueRequest of(QueueKey queue, String member) {
        return new EnqueueRequest(queue, member, CrawlFields.ofMember(member), Optional.empty(), false, List.of(), false);
    }

    /** This request, checked against and registered in {@code dupefilter}. */
    public EnqueueRequest withDupefilter(Dupefilter dupefilter) {
        return new EnqueueRequest(queue, member, fields, Optional.of(dupefilter), writeTimeout, pageLimits, domainRefused);
    }

    /** This request, also writing the crawl's timeout key. */
    public EnqueueRequest withTimeoutKey() {
        return new EnqueueRequest(queue, member, fields, dupefilter, true, pageLimits, domainRefused);
    }

    /** This request, also counted against {@code limit}. */
    public EnqueueRequest withPageLimit(PageLimit limit) {
        List<PageLimit> limits = new ArrayList<>(pageLimits);
        limits.add(limit);
        return new EnqueueRequest(queue, member, fields, dupefilter, writeTimeout, limits, domainRefused);
    }

    /** This request, refused because its domain is blacklisted (after the dupefilter and the page limits). */
    public EnqueueRequest withDomainRefused() {
        return new EnqueueRequest(queue, member, fields, dupefilter, writeTimeout, pageLimits, true);
    }

    /**
     * A request fingerprint to register in a dupefilter SET ({@code SADD}, then {@code EXPIRE}).
     *
     * @param key         the SET, usually {@link Keyspace#dupefilter} of the crawl
     * @param fingerprint the request fingerprint (SHA-1 hex)
     * @param ttl         the SET's expiry, refreshed on every check ({@code DUPEFILTER_TIMEOUT})
     */
    public record Dupefilter(String key, String fingerprint, Duration ttl) {

        public Dupefilter {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(fingerprint, "fingerprint");
            if (key.isEmpty()) {
                throw new IllegalArgumentException("a dupefilter key must not be empty");
            }
            if (ttl.getSeconds() < 1) {
                throw new IllegalArgumentException("a dupefilter expiry must be at least a second, got " + ttl);
            }
        }
    }

    /**
     * A page-limit counter (docs/compatibility.md §4.6), checked and counted atomically: at most
     * {@code limit − 1} requests pass it, so that with the seed a crawl fetches at most {@code limit}
     * pages of a domain.
     *
     * @param key                the counter, {@link Keyspace#domainMaxPageFilter} or {@link Keyspace#globalPageCountFilter}
     * @param limit              the limit, at least 1
     * @param ttl                the counter's expiry
     * @param refreshWhenReached whether a refused request refreshes the expiry too (the per-crawl
     *                           filter does, the global one does not)
     */
    public record PageLimit(String key, long limit, Duration ttl, boolean refreshWhenReached) {

        public PageLimit {
            Objects.requireNonNull(key, "key");
            if (key.isEmpty()) {
                throw new IllegalArgumentException("a page-limit key must not be empty");
            }
            if (limit < 1) {
                throw new IllegalArgumentException("a page limit must be at least 1, got " + limit);
            }
            if (ttl.getSeconds() < 1) {
                throw new IllegalArgumentException("a page-limit expiry must be at least a second, got " + ttl);
            }
        }

        /** A crawl's {@code domain_max_pages} counter ({@code DOMAIN_MAX_PAGE_TIMEOUT}). */
        public static PageLimit perCrawl(String key, long limit, Duration ttl) {
            return new PageLimit(key, limit, ttl, true);
        }

        /** The {@code GLOBAL_PAGE_PER_DOMAIN_LIMIT} counter ({@code GLOBAL_PAGE_PER_DOMAIN_LIMIT_TIMEOUT}). */
        public static PageLimit global(String key, long limit, Duration ttl) {
            return new PageLimit(key, limit, ttl, false);
        }
    }
}
