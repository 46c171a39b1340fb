package org.scrapycluster.crawler.node;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import org.scrapycluster.common.queue.ThrottleKeyStyle;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.zookeeper.DomainThrottle;
import org.scrapycluster.crawler.fetch.AddressPolicy;
import org.scrapycluster.crawler.fetch.FetcherConfig;
import org.scrapycluster.crawler.fetch.NetworkRange;
import org.scrapycluster.crawler.fetch.ProxyConfig;
import org.scrapycluster.crawler.middleware.BackoffPolicy;
import org.scrapycluster.crawler.middleware.RedirectPolicy;
import org.scrapycluster.crawler.middleware.RetryPolicy;
import org.scrapycluster.crawler.request.Referrers;
import org.scrapycluster.crawler.robots.RobotName;
import org.scrapycluster.crawler.scheduler.DomainThrottles;
import org.scrapycluster.crawler.scheduler.RequestFiler;
import org.scrapycluster.crawler.scheduler.SchedulerLimits;

/**
 * A crawler node's settings ({@code config/crawler.yml}), read and checked once, in the shapes its parts
 * take. Values that cannot work (a concurrency of 0, a lease under a second) are refused with the
 * setting's name.
 */
public record CrawlerConfig(Settings settings, String spiderName, SchedulerLimits limits, Duration discoveryInterval,
        Duration queueRefresh, Duration leaseReapInterval, ThrottleKeyStyle throttleKeyStyle, double queueWindow, int queueHits,
        boolean queueModerated, Duration ipRefresh, RetryPolicy retry, RedirectPolicy redirect, BackoffPolicy backoff,
        boolean robotsObey, Duration robotsCacheTime, RobotName robotName, RequestFiler.Policy filing, boolean statusMsgFromResponse,
        Referrers referrers, int workerThreads) {

    /**
     * Reads the settings of a crawler node. The values its parts read from it later ({@link #fetcher()} and the like) are
     * read here once too, so that a bad one is refused by {@code --check} as by a start, before anything connects.
     */
    public static CrawlerConfig from(Settings settings) {
        int concurrent = atLeast(settings, "CONCURRENT_REQUESTS", 1);
        int perDomain = atLeast(settings, "CONCURRENT_REQUESTS_PER_DOMAIN", 1);
        int handOutsAwaited = atLeast(settings, "SCHEDULER_HANDOUT_CALLS", 1);
        Duration lease = settings.getSeconds("LEASE_SECONDS");
        if (lease.toMillis() < 1000) {
            throw settings.invalid("LEASE_SECONDS", "must be at least 1 (seconds); it must outlast the slowest fetch");
        }
        double window = DomainThrottle.defaultWindow(settings);
        int hits = DomainThrottle.defaultHits(settings);
        Integer global = settings.getNullableInt("GLOBAL_PAGE_PER_DOMAIN_LIMIT");
        String userAgent = settings.getString("USER_AGENT");
        int workers = settings.getInt("CRAWLER_WORKER_THREADS");
        CrawlerConfig config = new CrawlerConfig(settings, settings.getString("SPIDER_NAME"),
                new SchedulerLimits(concurrent, perDomain, handOutsAwaited, lease, Duration.ofSeconds(1)),
                positive(settings, "SCHEDULER_DISCOVERY_INTERVAL"), positive(settings, "SCHEDULER_QUEUE_REFRESH"),
                positive(settings, "LEASE_REAP_INTERVAL"),
                new ThrottleKeyStyle(settings.getBoolean("SCHEDULER_TYPE_ENABLED"), settings.getBoolean("SCHEDULER_IP_ENABLED")),
                window, hits, settings.getBoolean("QUEUE_MODERATED"), positive(settings, "SCHEDULER_IP_REFRESH"),
                new RetryPolicy(settings.getBoolean("RETRY_ENABLED"), atLeast(settings, "RETRY_TIMES", 0),
                        new HashSet<>(settings.getIntList("RETRY_HTTP_CODES"))),
                new RedirectPolicy(settings.getBoolean("REDIRECT_ENABLED"), atLeast(settings, "REDIRECT_MAX_TIMES", 0)),
                new BackoffPolicy(settings.getBoolean("RETRY_AFTER_ENABLED"), settings.getSeconds("RETRY_AFTER_DEFAULT"),
                        settings.getSeconds("RETRY_AFTER_MAX")),
                settings.getBoolean("ROBOTSTXT_OBEY"), positive(settings, "ROBOTSTXT_CACHE_SECONDS"),
                RobotName.of(settings.getNullableString("ROBOTSTXT_USER_AGENT"), userAgent),
                new RequestFiler.Policy(atLeastOneSecond(settings, "DUPEFILTER_TIMEOUT"),
                        atLeastOneSecond(settings, "DOMAIN_MAX_PAGE_TIMEOUT"), global == null ? 0 : Math.max(0, global),
                        atLeastOneSecond(settings, "GLOBAL_PAGE_PER_DOMAIN_LIMIT_TIMEOUT"),
                        settings.getBoolean("SCHEDULER_BACKLOG_BLACKLIST")),
                settings.getBoolean("STATUS_MSG_FROM_RESPONSE"), Referrers.from(settings),
                workers > 0 ? workers : Runtime.getRuntime().availableProcessors());
        config.readLaterValues();
        return config;
    }

    /** Reads every value the node's parts read later, each refused here when it cannot work. */
    private void readLaterValues() {
        publishBinaryResponses();
        urlLengthLimit();
        linkRegexPageTime();
        dupefilterMemory();
        robotsRetry();
        robotsMaxCrawlDelay();
        robotsMaxHosts();
        robotsMaxBytes();
        fetcher();
    }

    /** Whether responses that are not text are published, base64-encoded ({@code PUBLISH_BINARY_RESPONSES}). */
    public boolean publishBinaryResponses() {
        return settings.getBoolean("PUBLISH_BINARY_RESPONSES");
    }

    /** The longest URL a spider's request may have, in characters; 0 for no limit ({@code URLLENGTH_LIMIT}). */
    public int urlLengthLimit() {
        return atLeast(settings, "URLLENGTH_LIMIT", 0);
    }

    /** The most time a page's links spend in its crawl's regexes ({@code LINK_REGEX_PAGE_SECONDS}). */
    public Duration linkRegexPageTime() {
        return positive(settings, "LINK_REGEX_PAGE_SECONDS");
    }

    /** How many request fingerprints a node remembers as in their crawl's dupefilter ({@code DUPEFILTER_MEMORY}). */
    public int dupefilterMemory() {
        return atLeast(settings, "DUPEFILTER_MEMORY", 0);
    }

    /** How long a robots.txt that could not be read is taken as such before it is asked again ({@code ROBOTSTXT_RETRY_SECONDS}). */
    public Duration robotsRetry() {
        return positive(settings, "ROBOTSTXT_RETRY_SECONDS");
    }

    /** The longest robots.txt Crawl-delay the throttle honours ({@code ROBOTSTXT_MAX_CRAWL_DELAY}), at most a day. */
    public Duration robotsMaxCrawlDelay() {
        Duration longest = positive(settings, "ROBOTSTXT_MAX_CRAWL_DELAY");
        if (longest.compareTo(DomainThrottles.LONGEST_CRAWL_DELAY) > 0) {
            throw settings.invalid("ROBOTSTXT_MAX_CRAWL_DELAY", "is " + longest.toSeconds() + " seconds; it must be at most a day ("
                    + DomainThrottles.LONGEST_CRAWL_DELAY.toSeconds() + ")");
        }
        return longest;
    }

    /** How many hosts' robots.txt rules a node keeps at most. */
    public int robotsMaxHosts() {
        return atLeast(settings, "ROBOTSTXT_CACHE_MAX_HOSTS", 1);
    }

    /** How many bytes of robots.txt files a node keeps at most. */
    public long robotsMaxBytes() {
        long value = settings.getLong("ROBOTSTXT_CACHE_MAX_BYTES");
        if (value < 1) {
            throw settings.invalid("ROBOTSTXT_CACHE_MAX_BYTES", "is " + value + "; it must be at least 1");
        }
        return value;
    }

    /** How long a download may take ({@code DOWNLOAD_TIMEOUT}): connecting, waiting for a byte, and in all. */
    public Duration downloadTimeout() {
        return positive(settings, "DOWNLOAD_TIMEOUT");
    }

    /** How the fetcher behaves: timeouts, size limit, address policy, certificate checks, User-Agent, proxy. */
    public FetcherConfig fetcher() {
        Duration timeout = downloadTimeout();
        return FetcherConfig.builder()
                .proxy(proxy(settings))
                .maxConnections(limits.maxInFlight())
                .maxConnectionsPerHost(limits.maxPerDomain())
                .connectTimeout(timeout)
                .dnsTimeout(positive(settings, "DNS_TIMEOUT"))
                .readTimeout(timeout)
                .totalTimeout(timeout)
                .maxBodyBytes(maxBodyBytes(settings))
                .warnBodyBytes(warnBodyBytes(settings))
                .userAgent(settings.getString("USER_AGENT"))
                .addressPolicy(addressPolicy(settings))
                .trustAllCertificates(!settings.getBoolean("DOWNLOAD_VERIFY_CERTIFICATES"))
                .maxIdleConnections(Math.max(64, limits.maxInFlight() * 2))
                .build();
    }

    /** {@code DOWNLOAD_WARNSIZE}, whose 0 is Scrapy's "never". */
    private static long warnBodyBytes(Settings settings) {
        long size = settings.getLong("DOWNLOAD_WARNSIZE");
        if (size < 0) {
            throw settings.invalid("DOWNLOAD_WARNSIZE", "is " + size + "; it must be a number of bytes, or 0 for no warning");
        }
        return size;
    }

    /** {@code DOWNLOAD_MAXSIZE}, whose 0 is Scrapy's "no limit": the largest body a node can hold, about 2 GiB. */
    private static long maxBodyBytes(Settings settings) {
        long limit = settings.getLong("DOWNLOAD_MAXSIZE");
        if (limit < 0 || limit > FetcherConfig.LARGEST_BODY) {
            throw settings.invalid("DOWNLOAD_MAXSIZE", "is " + limit + "; it must be from 1 to " + FetcherConfig.LARGEST_BODY
                    + " bytes, or 0 for that largest");
        }
        return limit == 0 ? FetcherConfig.LARGEST_BODY : limit;
    }

    /** {@code DOWNLOAD_FORBID_PRIVATE_ADDRESSES}, letting the blocks of {@code DOWNLOAD_ALLOWED_PRIVATE_NETWORKS} through. */
    private static AddressPolicy addressPolicy(Settings settings) {
        List<NetworkRange> allowed = new ArrayList<>();
        for (String block : settings.getStringList("DOWNLOAD_ALLOWED_PRIVATE_NETWORKS")) {
            try {
                allowed.add(NetworkRange.parse(block));
            } catch (IllegalArgumentException e) {
                throw settings.invalid("DOWNLOAD_ALLOWED_PRIVATE_NETWORKS", e.getMessage());
            }
        }
        return settings.getBoolean("DOWNLOAD_FORBID_PRIVATE_ADDRESSES") ? AddressPolicy.publicOnly(allowed) : AddressPolicy.any();
    }

    /** The proxy of {@code DOWNLOAD_PROXY}, or null for none. */
    private static ProxyConfig proxy(Settings settings) {
        String url = settings.getNullableString("DOWNLOAD_PROXY");
        if (url == null || url.isBlank()) {
            return null;
        }
        try {
            return ProxyConfig.parse(url);
        } catch (IllegalArgumentException e) {
            throw settings.invalid("DOWNLOAD_PROXY", e.getMessage());
        }
    }

    private static int atLeast(Settings settings, String name, int least) {
        int value = settings.getInt(name);
        if (value < least) {
            throw settings.invalid(name, "is " + value + "; it must be at least " + least);
        }
        return value;
    }

    private static Duration positive(Settings settings, String name) {
        Duration value = settings.getSeconds(name);
        if (value.isNegative() || value.isZero()) {
            throw settings.invalid(name, "must be a positive number of seconds");
        }
        return value;
    }

    private static Duration atLeastOneSecond(Settings settings, String name) {
        Duration value = settings.getSeconds(name);
        if (value.getSeconds() < 1) {
            throw settings.invalid(name, "must be at least 1 (seconds)");
        }
        return value;
    }
}
