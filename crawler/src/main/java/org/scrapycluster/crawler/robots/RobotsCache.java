package org.scrapycluster.crawler.robots;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.scrapycluster.common.url.UrlParts;
import org.scrapycluster.crawler.fetch.FetchRequest;
import org.scrapycluster.crawler.fetch.FetchResult;
import org.scrapycluster.crawler.fetch.HttpFetcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;

/**
 * The robots.txt rules of every host this node crawls: fetched once per scheme, host and port through the
 * crawler's own fetcher (following up to {@value #MAX_REDIRECTS} redirects), parsed by crawler-commons'
 * {@link SimpleRobotRulesParser} for this crawler's robot name, and kept for the cache time. As Scrapy's
 * robots.txt middleware does, a missing file (4xx) allows everything, and so does a file that cannot be
 * fetched (5xx, network error) — kept for {@link #UNAVAILABLE_TTL} only, then asked again. Concurrent
 * requests for one host share one fetch. Thread-safe.
 */
public final class RobotsCache {

    /** How long an unavailable robots.txt counts as "allow everything" before it is fetched again. */
    public static final Duration UNAVAILABLE_TTL = Duration.ofMinutes(1);

    private static final Logger LOG = LoggerFactory.getLogger(RobotsCache.class);
    private static final int MAX_REDIRECTS = 5;
    private static final int MAX_HOSTS = 100_000;
    private static final SimpleRobotRules ALLOW_ALL = new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_ALL);

    private final HttpFetcher fetcher;
    private final List<String> robotNames;
    private final long ttlNanos;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    /**
     * @param fetcher   fetches robots.txt files
     * @param robotName the name this crawler answers to in {@code User-agent} lines ({@code scrapy})
     * @param ttl       how long fetched rules are kept
     */
    public RobotsCache(HttpFetcher fetcher, String robotName, Duration ttl) {
        this.fetcher = fetcher;
        this.robotNames = List.of(robotName.toLowerCase(Locale.ROOT));
        this.ttlNanos = ttl.toNanos();
    }

    /** The rules for {@code url}'s host, fetched when not cached; a URL without a host is allowed. */
    public CompletableFuture<BaseRobotRules> rulesFor(String url) {
        String origin;
        try {
            UrlParts parts = UrlParts.split(url);
            origin = parts.scheme().toLowerCase(Locale.ROOT) + "://" + parts.netloc().toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(ALLOW_ALL);
        }
        long now = System.nanoTime();
        Cached cached = cache.get(origin);
        if (cached != null && now - cached.expiresAt < 0) {
            return cached.rules;
        }
        trimIfFull();
        Cached fresh = new Cached(new CompletableFuture<>(), now + ttlNanos);
        Cached winner = cached == null ? cache.putIfAbsent(origin, fresh) : cache.replace(origin, cached, fresh) ? null : cache.get(origin);
        if (winner != null && winner != fresh) {
            return winner.rules;
        }
        fetch(origin + "/robots.txt", 0).whenComplete((rules, failure) -> {
            if (failure != null) {
                LOG.atWarn().addKeyValue("url", origin + "/robots.txt").setCause(failure).log("Could not read robots.txt; allowing");
                allowForAWhile(origin, fresh);
            } else if (rules == null) {
                allowForAWhile(origin, fresh);
            } else {
                fresh.rules.complete(rules);
            }
        });
        return fresh.rules;
    }

    private void allowForAWhile(String origin, Cached entry) {
        cache.replace(origin, entry, new Cached(entry.rules, System.nanoTime() + UNAVAILABLE_TTL.toNanos()));
        entry.rules.complete(ALLOW_ALL);
    }

    /** The parsed rules; null when the file is unavailable (5xx, network error, redirect loop). */
    private CompletableFuture<BaseRobotRules> fetch(String url, int redirects) {
        return fetcher.fetch(FetchRequest.get(url)).thenCompose(result -> {
            if (!result.ok()) {
                LOG.atDebug().addKeyValue("url", url).addKeyValue("error", result.error()).log("robots.txt unavailable");
                return CompletableFuture.completedFuture(null);
            }
            if (result.redirectLocation().isPresent() && redirects < MAX_REDIRECTS) {
                return fetch(result.redirectLocation().get(), redirects + 1);
            }
            return CompletableFuture.completedFuture(parse(url, result));
        });
    }

    private BaseRobotRules parse(String url, FetchResult result) {
        int status = result.status();
        if (status >= 200 && status < 300) {
            return new SimpleRobotRulesParser().parseContent(url, result.body(), contentType(result), robotNames);
        }
        if (status >= 400 && status < 500) {
            return ALLOW_ALL;
        }
        return null;
    }

    private static String contentType(FetchResult result) {
        String type = result.headers().first("Content-Type");
        return type == null ? "text/plain" : type;
    }

    private void trimIfFull() {
        if (cache.size() < MAX_HOSTS) {
            return;
        }
        long now = System.nanoTime();
        cache.values().removeIf(entry -> now - entry.expiresAt >= 0);
        Iterator<String> oldest = cache.keySet().iterator();
        while (cache.size() >= MAX_HOSTS && oldest.hasNext()) {
            oldest.next();
            oldest.remove();
        }
    }

    private record Cached(CompletableFuture<BaseRobotRules> rules, long expiresAt) {
    }
}
