package org.scrapycluster.crawler.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.scrapycluster.common.metrics.LatencyBuckets;
import org.scrapycluster.common.queue.EnqueueOutcome;
import org.scrapycluster.common.queue.LeaseReaper;
import org.scrapycluster.crawler.fetch.FetchError;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Cache;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;

/**
 * The Micrometer meters of one crawler node, tagged with its spider and node id (several nodes share a
 * registry in standalone): pages and bytes fetched (their rates are pages/s and bytes/s), the fetch
 * latency histogram, fetches in flight, leases held / renewed / lost / handed back, throttle waits,
 * hand-out outcomes, enqueue outcomes, retries, redirects, robots.txt refusals, oversized results, requests with
 * overlong URLs and errors by kind. Thread-safe.
 */
public final class CrawlerMetrics {

    /**
     * The fetch latency histogram's buckets: 1, 2.5 and 5 in each decade from 1 ms to {@code DOWNLOAD_TIMEOUT}'s 10 s,
     * then up to three minutes for longer timeouts.
     */
    private static final Duration[] FETCH_BUCKETS = LatencyBuckets.decades(Duration.ofMillis(1), Duration.ofSeconds(10),
            Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(180));

    /** The help text of each counter made on first use, by meter name: what Prometheus shows as {@code # HELP}. */
    private static final Map<String, String> DESCRIPTIONS = Map.ofEntries(
            Map.entry("crawler.responses", "Fetch attempts answered, by HTTP status"),
            Map.entry("crawler.handouts", "Throttle decisions asked of Redis, by outcome"),
            Map.entry("crawler.enqueued", "Requests filed into Redis (links, retries, redirects), by outcome"),
            Map.entry("crawler.errors", "Failures, by kind"),
            Map.entry("crawler.leases", "Lease events: renewed, lost, returned at shutdown, cut short after a lost answer"),
            Map.entry("crawler.redis.retries", "Redis writes tried again after they failed, by call"),
            Map.entry("crawler.throttle.waits", "Times the throttle held a ready domain back"),
            Map.entry("crawler.retries", "Requests sent back to Redis for a retry"),
            Map.entry("crawler.redirects", "Redirects followed, each as a new request (which the dupefilter may still drop)"),
            Map.entry("crawler.robots.refused", "Requests robots.txt forbade"),
            Map.entry("crawler.binary.responses", "Responses that are not text, dropped unpublished"),
            Map.entry("crawler.results.too_large", "Results too large for Kafka, sent without their body"),
            Map.entry("crawler.requests.too_long", "Requests of spiders whose URL is longer than URLLENGTH_LIMIT, dropped"),
            Map.entry("crawler.links.cut", "Links of pages not matched against their crawl's regexes, nor followed: the page had spent"
                    + " LINK_REGEX_PAGE_SECONDS in them, or the match could take longer than was left"));

    /** The counters of one series each (no tag but the node's). */
    private static final List<String> UNTAGGED = List.of("crawler.throttle.waits", "crawler.retries", "crawler.redirects",
            "crawler.robots.refused", "crawler.binary.responses", "crawler.results.too_large", "crawler.requests.too_long",
            "crawler.links.cut");

    private final MeterRegistry registry;
    private final String spider;
    private final String node;
    private final Counter pages;
    private final Counter bytes;
    private final Timer fetchLatency;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger publishingStalled = new AtomicInteger();
    private final AtomicInteger slowDomains = new AtomicInteger();
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<EnqueueOutcome, Counter> enqueued = new ConcurrentHashMap<>();

    public CrawlerMetrics(MeterRegistry registry, String spider, String node) {
        this.registry = registry;
        this.spider = spider;
        this.node = node;
        this.pages = counterBuilder("crawler.pages", "Responses handed to the spider").register(registry);
        this.bytes = counterBuilder("crawler.bytes", "Body bytes fetched").baseUnit("bytes").register(registry);
        this.fetchLatency = Timer.builder("crawler.fetch.latency")
                .description("Time of each fetch attempt, from sending its request to its full response or its failure")
                .tags("spider", spider, "node", node).serviceLevelObjectives(FETCH_BUCKETS).register(registry);
        Gauge.builder("crawler.inflight", inFlight, AtomicInteger::get).description("Requests handed out and not finished")
                .tags("spider", spider, "node", node).register(registry);
        Gauge.builder("crawler.publishing.stalled", publishingStalled, AtomicInteger::get)
                .description("1 while results cannot be published and the node fetches one request at a time")
                .tags("spider", spider, "node", node).register(registry);
        Gauge.builder("crawler.slow.domains", slowDomains, AtomicInteger::get)
                .description("Domains held to fewer requests in flight because a fetch of theirs was slow lately")
                .tags("spider", spider, "node", node).register(registry);
        // counters of one series, and a fetch failure of each kind, are there at 0 from the start: a series that appears
        // at its first event has no sample before it, and rate() or increase() would miss that first event
        UNTAGGED.forEach(name -> count(name, null, null, 0));
        for (FetchError kind : FetchError.values()) {
            count("crawler.errors", "kind", kind.name().toLowerCase(Locale.ROOT), 0);
        }
    }

    /** Reports {@code cache}'s hits, misses, evictions and size as {@code cache_*{cache=name}} of this node. */
    public void cache(String name, AsyncCache<?, ?> cache) {
        CaffeineCacheMetrics.monitor(registry, cache, name, "spider", spider, "node", node);
    }

    /** {@link #cache(String, AsyncCache)} of a synchronous cache. */
    public void cache(String name, Cache<?, ?> cache) {
        CaffeineCacheMetrics.monitor(registry, cache, name, "spider", spider, "node", node);
    }

    /**
     * {@link #cache(String, AsyncCache)} of a cache of the node's own, by what it counts: the meters and descriptions of
     * Micrometer's cache binder, so that Prometheus sees one family for every cache.
     */
    public void cache(String name, CacheCounts cache) {
        Tags tags = Tags.of("cache", name, "spider", spider, "node", node);
        Gauge.builder("cache.size", cache, CacheCounts::size).tags(tags)
                .description("The number of entries in this cache. This may be an approximation, depending on the type of cache.")
                .register(registry);
        String gets = "The number of times cache lookup methods have returned a cached (hit) or uncached (newly loaded or null) "
                + "value (miss).";
        FunctionCounter.builder("cache.gets", cache, CacheCounts::hitCount).tags(tags).tag("result", "hit").description(gets)
                .register(registry);
        FunctionCounter.builder("cache.gets", cache, CacheCounts::missCount).tags(tags).tag("result", "miss").description(gets)
                .register(registry);
        FunctionCounter.builder("cache.puts", cache, CacheCounts::putCount).tags(tags)
                .description("The number of entries added to the cache").register(registry);
        FunctionCounter.builder("cache.evictions", cache, CacheCounts::evictionCount).tags(tags)
                .description("The number of times the cache was evicted.").register(registry);
    }

    /** Registers the gauge of leases held now. */
    public void leasesHeld(Supplier<Number> held) {
        Gauge.builder("crawler.leases.held", held).description("Leases this node holds").tags("spider", spider, "node", node)
                .strongReference(true).register(registry);
    }

    /** Registers the count of expired leases {@code reaper}, this node's, returned to their queues. */
    public void leasesReaped(LeaseReaper reaper) {
        FunctionCounter.builder("crawler.leases.reaped", reaper, LeaseReaper::returnedTotal)
                .description("Expired leases this node returned to their queues").tags("spider", spider, "node", node).register(registry);
    }

    /** A response reached the spider with {@code bodyBytes} of body. */
    public void page(long bodyBytes) {
        pages.increment();
        bytes.increment(bodyBytes);
    }

    /**
     * A fetch attempt ended after {@code latency}: answered (its answer retried, followed or handed to the spider), or
     * failed, a timeout after its whole wait, so that the latency's quantiles see a domain that hangs.
     */
    public void fetchTime(Duration latency) {
        fetchLatency.record(latency);
    }

    /**
     * A fetch attempt was answered with HTTP status {@code status}, whether the answer reaches the spider or is retried or
     * followed. A status outside 100 to 599 is counted as {@code other}: a server may send any number there, and one
     * series each would grow the node's meters with every page of a server that sends a new one.
     */
    public void response(int status) {
        count("crawler.responses", "status", status >= 100 && status <= 599 ? Integer.toString(status) : "other");
    }

    /** Whether results cannot be published now. */
    public void publishingStalled(boolean stalled) {
        publishingStalled.set(stalled ? 1 : 0);
    }

    /** The gauge of requests in flight. */
    public AtomicInteger inFlight() {
        return inFlight;
    }

    /** How many domains are held to fewer requests in flight because a fetch of theirs was slow lately. */
    public void slowDomains(int count) {
        slowDomains.set(count);
    }

    /**
     * One hand-out decision with this outcome ({@code handed_out}, {@code wait}, {@code empty}, {@code paused};
     * {@code domain_error} when Redis failed that domain's decision alone, {@code failed} when the whole call failed).
     */
    public void handOut(String outcome) {
        count("crawler.handouts", "outcome", outcome);
    }

    /** One enqueue of a discovered, retried or redirected request, by outcome. */
    public void enqueued(EnqueueOutcome outcome) {
        enqueued.computeIfAbsent(outcome, o -> counterBuilder("crawler.enqueued", DESCRIPTIONS.get("crawler.enqueued"))
                .tag("outcome", o.name().toLowerCase(Locale.ROOT)).register(registry)).increment();
    }

    /** One error, by kind (a fetch error name, {@code kafka}, {@code malformed_member}, …). */
    public void error(String kind) {
        count("crawler.errors", "kind", kind);
    }

    /** A lease event: {@code renewed}, {@code lost} (no longer held when renewed) or {@code returned} at shutdown. */
    public void lease(String event) {
        count("crawler.leases", "event", event);
    }

    /** A Redis write tried again after it failed: {@code ack} (an acknowledgement) or {@code filing} (a page's links). */
    public void redisRetry(String call) {
        count("crawler.redis.retries", "call", call);
    }

    /** Leases made by hand-out calls whose answers were lost, cut short so that their requests are reaped at once. */
    public void leasesCutShort(long leases) {
        count("crawler.leases", "event", "cut_short", leases);
    }

    /** The throttle said wait. */
    public void throttleWait() {
        count("crawler.throttle.waits", null, null);
    }

    /** A request was sent back to Redis for a retry. */
    public void retry() {
        count("crawler.retries", null, null);
    }

    /** A redirect was followed as a new request. */
    public void redirect() {
        count("crawler.redirects", null, null);
    }

    /** robots.txt forbade a request. */
    public void robotsRefused() {
        count("crawler.robots.refused", null, null);
    }

    /** A response that is not text was dropped unpublished ({@code PUBLISH_BINARY_RESPONSES} off). */
    public void binaryResponse() {
        count("crawler.binary.responses", null, null);
    }

    /** A result was too large for Kafka and went out without its body. */
    public void resultTooLarge() {
        count("crawler.results.too_large", null, null);
    }

    /** A spider's request was dropped for a URL longer than {@code URLLENGTH_LIMIT}. */
    public void requestTooLong() {
        count("crawler.requests.too_long", null, null);
    }

    /** {@code links} links of a page were not followed: matching them against its crawl's regexes took, or would take, too long. */
    public void linksCut(int links) {
        count("crawler.links.cut", null, null, links);
    }

    private void count(String name, String tag, String value) {
        count(name, tag, value, 1);
    }

    private void count(String name, String tag, String value, double amount) {
        String key = tag == null ? name : name + "|" + value;
        counters.computeIfAbsent(key, k -> {
            Counter.Builder builder = counterBuilder(name, DESCRIPTIONS.get(name));
            if (tag != null) {
                builder.tag(tag, value);
            }
            return builder.register(registry);
        }).increment(amount);
    }

    private Counter.Builder counterBuilder(String name, String description) {
        return Counter.builder(name).description(description).tags("spider", spider, "node", node);
    }
}
