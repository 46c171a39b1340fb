package org.scrapycluster.crawler.robots;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.scrapycluster.common.url.UrlParts;
import org.scrapycluster.crawler.fetch.EncodingDetector;
import org.scrapycluster.crawler.fetch.FetchRequest;
import org.scrapycluster.crawler.fetch.FetchResult;
import org.scrapycluster.crawler.fetch.Fetcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;

/**
 * The robots.txt rules of every host this node crawls: fetched once per scheme, host and port through the
 * crawler's own fetcher (following up to {@value #MAX_REDIRECTS} redirects), parsed by crawler-commons'
 * {@link SimpleRobotRulesParser} for this crawler's robot name, and kept for the cache time. As Scrapy's
 * robots.txt middleware does, a missing file (4xx) allows everything, and so does a file that cannot be
 * fetched (5xx, network error) — kept for {@link #UNAVAILABLE_TTL} only, then asked again. Of a file longer
 * than {@value #MAX_FILE_BYTES} bytes, that much is read and its whole lines parsed, the rest ignored, whatever the
 * fetcher's size limit: RFC 9309 asks for at least 500 KiB, and Google reads as much. A file that cannot
 * be fetched again when its rules expire leaves the rules last read in force meanwhile, as Scrapy reads a file
 * once and keeps it. Concurrent requests for one host share one fetch. The hosts kept are bounded; the least
 * likely to be asked again go first. Thread-safe.
 */
public final class RobotsCache {

    /** How long an unavailable robots.txt allows everything (or leaves the rules last read) before it is asked again. */
    public static final Duration UNAVAILABLE_TTL = Duration.ofMinutes(1);

    private static final Logger LOG = LoggerFactory.getLogger(RobotsCache.class);
    private static final int MAX_REDIRECTS = 5;
    /** The most of a file read: 500 KiB. */
    private static final int MAX_FILE_BYTES = 500 * 1024;
    private static final int TOO_MANY_REQUESTS = 429;
    private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");
    private static final SimpleRobotRules ALLOW_ALL = new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_ALL);

    private final Fetcher fetcher;
    private final List<String> robotNames;
    private final AsyncCache<String, Rules> cache;
    /** The rules last read from each host's file, in force while it cannot be read again. */
    private final Cache<String, BaseRobotRules> lastRead;

    /**
     * @param fetcher   fetches robots.txt files
     * @param robotName the name this crawler answers to in {@code User-agent} lines, or a User-Agent whose product
     *                  token is that name ({@code Scrapy/1.5.0 (+https://scrapy.org)} answers to {@code scrapy})
     * @param ttl       how long fetched rules are kept
     * @param maxHosts  how many hosts' rules are kept at most
     * @param clock     the clock the time to live is measured on
     */
    public RobotsCache(Fetcher fetcher, String robotName, Duration ttl, long maxHosts, InstantSource clock) {
        this.fetcher = fetcher;
        this.robotNames = robotNames(robotName);
        this.cache = Caffeine.newBuilder()
                .maximumSize(maxHosts)
                .ticker(() -> TimeUnit.MILLISECONDS.toNanos(clock.millis()))
                .expireAfter(Expiry.<String, Rules>creating((origin, rules) -> rules.available() ? ttl : UNAVAILABLE_TTL))
                .recordStats()
                .buildAsync();
        this.lastRead = Caffeine.newBuilder().maximumSize(maxHosts).recordStats().build();
    }

    /**
     * The lower-case product token of {@code robotName}, as robots.txt groups name robots; none when it has no
     * token (or is {@code *}), so that only the {@code *} group applies. The parser matches whole tokens only and
     * refuses {@code *}.
     */
    private static List<String> robotNames(String robotName) {
        String token = robotName.strip().split("[/\\s]", 2)[0].toLowerCase(Locale.ROOT);
        return token.isEmpty() || token.equals("*") ? List.of() : List.of(token);
    }

    /** The cache, for its metrics. */
    public AsyncCache<String, ?> hosts() {
        return cache;
    }

    /** The rules last read from each host, in force while its file cannot be read again: for their metrics. */
    public Cache<String, ?> lastRead() {
        return lastRead;
    }

    /** The rules for {@code url}'s host, fetched when not cached; a URL without a host is allowed. */
    public CompletableFuture<BaseRobotRules> rulesFor(String url) {
        UrlParts parts;
        try {
            parts = UrlParts.split(url);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(ALLOW_ALL);
        }
        if (parts.scheme().isEmpty() || parts.netloc().isEmpty()) {
            return CompletableFuture.completedFuture(ALLOW_ALL);
        }
        String origin = parts.scheme().toLowerCase(Locale.ROOT) + "://" + parts.netloc().toLowerCase(Locale.ROOT);
        return cache.get(origin, (key, executor) -> fetch(key + "/robots.txt", 0).handle((rules, failure) -> {
            if (failure != null) {
                LOG.atWarn().addKeyValue("url", key + "/robots.txt").setCause(failure).log("Could not read robots.txt");
            }
            if (rules == null) {
                BaseRobotRules previous = lastRead.getIfPresent(key);
                return new Rules(previous == null ? ALLOW_ALL : previous, false);
            }
            lastRead.put(key, rules);
            return new Rules(rules, true);
        })).thenApply(Rules::rules);
    }

    /** The parsed rules; null when the file is unavailable (5xx, network error, redirect loop). */
    private CompletableFuture<BaseRobotRules> fetch(String url, int redirects) {
        return fetcher.fetch(FetchRequest.get(url).withBodyCut(MAX_FILE_BYTES)).thenCompose(result -> {
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
            return parser().parseContent(url, utf8(wholeLines(result.body())), contentType(result), robotNames);
        }
        if (status >= 400 && status < 500 && status != TOO_MANY_REQUESTS) {
            return ALLOW_ALL;
        }
        return null; // unavailable for now: a server that is down, or that asks for fewer requests, is asked again soon
    }

    /**
     * The file up to its last line break when it is as long as a read is cut ({@value #MAX_FILE_BYTES} bytes): a line
     * cut short could allow more than it says, and a character cut in two would make the file no longer UTF-8.
     */
    private static byte[] wholeLines(byte[] body) {
        if (body.length < MAX_FILE_BYTES) {
            return body;
        }
        int end = body.length;
        while (end > 0 && body[end - 1] != '\n' && body[end - 1] != '\r') {
            end--;
        }
        return Arrays.copyOf(body, end);
    }

    /**
     * The file as the parser reads it, which is UTF-8 unless a byte-order mark says UTF-16: bytes that are not UTF-8
     * are read as cp1252, as a page that declares no encoding is, so that a Latin-1 {@code Disallow: /café} forbids
     * what a link to {@code /café} becomes ({@code /caf%C3%A9}). Scrapy drops such bytes, forbidding {@code /caf}.
     */
    private static byte[] utf8(byte[] body) {
        boolean utf16 = body.length >= 2 && (body[0] == (byte) 0xFF && body[1] == (byte) 0xFE
                || body[0] == (byte) 0xFE && body[1] == (byte) 0xFF);
        return utf16 || EncodingDetector.isUtf8(body) ? body : new String(body, WINDOWS_1252).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A parser that keeps a file's rules whatever its {@code Crawl-delay}: crawler-commons' default turns a delay of
     * more than five minutes into "disallow everything", but a long delay asks for patience, not for nothing, and
     * the domain's throttle honours it (docs/throttling.md).
     */
    private static SimpleRobotRulesParser parser() {
        return new SimpleRobotRulesParser(Long.MAX_VALUE, SimpleRobotRulesParser.DEFAULT_MAX_WARNINGS);
    }

    private static String contentType(FetchResult result) {
        String type = result.headers().first("Content-Type");
        return type == null ? "text/plain" : type;
    }

    /** The rules of one host, and whether they came from its file now (else: those last read, or allow all). */
    private record Rules(BaseRobotRules rules, boolean available) {
    }
}
