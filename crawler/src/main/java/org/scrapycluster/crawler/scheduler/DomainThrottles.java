package org.scrapycluster.crawler.scheduler;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

import org.scrapycluster.common.queue.ThrottleKeyStyle;
import org.scrapycluster.common.queue.ThrottleSpec;
import org.scrapycluster.common.zookeeper.DomainThrottle;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * The throttle of every domain as this node applies it (docs/throttling.md): {@code QUEUE_HITS} per
 * {@code QUEUE_WINDOW} ({@code QUEUE_MODERATED}) unless ZooKeeper has an entry for the domain
 * ({@code window}, {@code int(hits × clamp(scale))}); a robots.txt {@code Crawl-delay} of any host of the
 * domain then bounds it: the limit becomes at most {@code window / delay}, moderated, so hand-outs are at
 * least {@code delay} apart (a delay longer than the window gives one hand-out per {@code delay}). The
 * throttle key is built by the key style with the node's public IP. While robots.txt is read
 * ({@link #awaitRobots}), the scheduler keeps one request of a domain in flight until the domain's robots.txt is
 * known ({@link #awaitsRobots}). The domains whose robots.txt was read are bounded, as the robots.txt cache is: one
 * that leaves is held to one request again until its next request has passed the robots.txt check. Every node computes
 * the same spec from the same inputs, so they share one cluster-wide limit. Thread-safe; changes apply to the next
 * hand-out.
 */
public final class DomainThrottles {

    /**
     * The longest Crawl-delay that can be honoured; a longer one counts as this. A robots.txt may say any number, and a
     * delay of centuries would overflow the nanoseconds the scheduler reckons in.
     */
    public static final Duration LONGEST_CRAWL_DELAY = Duration.ofDays(1);

    private final String spiderId;
    private final ThrottleKeyStyle style;
    private final double defaultWindow;
    private final int defaultHits;
    private final boolean moderated;
    /** The Crawl-delay of each host of each domain whose robots.txt was read (none: its hosts say none). */
    private final Cache<String, HostDelays> robotsRead;
    private volatile boolean awaitRobots;
    private volatile Map<String, DomainThrottle> overrides = Map.of();
    private volatile String publicIp;
    private volatile Duration longestCrawlDelay = LONGEST_CRAWL_DELAY;

    /**
     * @param spiderId      the node's spider (part of the throttle key by type)
     * @param style         how throttle keys are built
     * @param defaultWindow {@code QUEUE_WINDOW} seconds
     * @param defaultHits   {@code QUEUE_HITS}
     * @param moderated     {@code QUEUE_MODERATED}
     * @param publicIp      the node's public IP until a look-up says otherwise
     * @param maxRobotsRead the most domains whose robots.txt is remembered as read ({@code ROBOTSTXT_CACHE_MAX_HOSTS});
     *                      those least likely to be asked again leave first
     */
    public DomainThrottles(String spiderId, ThrottleKeyStyle style, double defaultWindow, int defaultHits, boolean moderated,
            String publicIp, long maxRobotsRead) {
        this.spiderId = spiderId;
        this.style = style;
        this.defaultWindow = defaultWindow;
        this.defaultHits = defaultHits;
        this.moderated = moderated;
        this.publicIp = Objects.requireNonNull(publicIp, "publicIp");
        this.robotsRead = Caffeine.newBuilder().maximumSize(maxRobotsRead).executor(Runnable::run).recordStats().build();
    }

    /**
     * From now on a domain is crawled one request at a time until its robots.txt (and Crawl-delay) is known. Said
     * by the middleware that reads robots.txt, and only by it: a domain waiting for a file nothing reads would be
     * held to one request for ever.
     */
    public void awaitRobots() {
        awaitRobots = true;
    }

    /**
     * Whether {@code domain} must wait for its robots.txt before more than one of its requests is in
     * flight: otherwise the first hand-outs of a new domain would all go before its Crawl-delay is known.
     */
    public boolean awaitsRobots(String domain) {
        return awaitRobots && robotsRead.getIfPresent(domain) == null;
    }

    /** The spec for the next hand-out of {@code domain}. */
    public ThrottleSpec specFor(String domain) {
        double window = defaultWindow;
        long limit = defaultHits;
        boolean spread = moderated;
        DomainThrottle entry = overrides.get(domain);
        if (entry != null && entry.applies()) {
            // a hand-written config may say any window; one of centuries would overflow the scheduler's waits
            window = entry.appliedWindow();
            limit = Math.max(0, entry.effectiveHits());
        }
        Duration delay = crawlDelay(domain);
        if (!delay.isZero() && limit > 0) {
            double delaySeconds = delay.toNanos() / 1e9;
            long allowed = (long) Math.floor(window / delaySeconds);
            if (allowed >= 1) {
                limit = Math.min(limit, allowed);
            } else {
                window = delaySeconds;
                limit = 1;
            }
            spread = true;
        }
        return new ThrottleSpec(style.throttleKey(spiderId, publicIp, domain), window, (int) Math.min(Integer.MAX_VALUE, limit),
                spread);
    }

    /** Replaces the ZooKeeper entries (complete ones apply). */
    public void overrides(Map<String, DomainThrottle> entries) {
        overrides = Map.copyOf(entries);
    }

    /** The ZooKeeper entries now in force. */
    public Map<String, DomainThrottle> overrides() {
        return overrides;
    }

    /**
     * Sets the longest Crawl-delay honoured ({@code ROBOTSTXT_MAX_CRAWL_DELAY}, at most {@link #LONGEST_CRAWL_DELAY}): the
     * throttle is the registered domain's, so one host's file (any of {@code *.github.io}) would space all of its hosts.
     */
    public void longestCrawlDelay(Duration longest) {
        longestCrawlDelay = longest.compareTo(LONGEST_CRAWL_DELAY) > 0 ? LONGEST_CRAWL_DELAY : longest;
    }

    /** Records the robots.txt {@code Crawl-delay} of {@code host} in {@code domain} (zero for none; at most the longest honoured). */
    public void crawlDelay(String domain, String host, Duration delay) {
        Duration longest = longestCrawlDelay;
        Duration honoured = delay.isNegative() ? Duration.ZERO : delay.compareTo(longest) > 0 ? longest : delay;
        robotsRead.get(domain, key -> new HostDelays()).note(host, honoured);
    }

    /** The domains whose robots.txt was read, with their hosts' Crawl-delays: for their metrics. */
    public Cache<String, ?> robotsRead() {
        return robotsRead;
    }

    /** The longest Crawl-delay of the domain's hosts, zero for none. */
    public Duration crawlDelay(String domain) {
        HostDelays hosts = robotsRead.getIfPresent(domain);
        return hosts == null ? Duration.ZERO : hosts.longest();
    }

    /** Sets the public IP that throttle keys by IP carry. */
    public void publicIp(String ip) {
        publicIp = Objects.requireNonNull(ip, "ip");
    }
}
