package org.scrapycluster.crawler.robots;

import java.io.ByteArrayOutputStream;
import java.net.URL;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.scrapycluster.common.bytes.BytePrefix;
import org.scrapycluster.common.url.HostNames;
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
import com.github.benmanes.caffeine.cache.Ticker;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;

/**
 * The robots.txt rules of every host this node crawls: each file fetched once per scheme, host and port through the
 * crawler's own fetcher (following up to {@value #MAX_REDIRECTS} redirects) and kept for the cache time, then parsed by
 * crawler-commons' {@link SimpleRobotRulesParser} for the robot a request is ({@link RobotName}: the User-Agent it
 * sends, unless {@code ROBOTSTXT_USER_AGENT} names the node's robot for all) and asked through {@link PathRules}, in
 * time that does not grow with their number. The rules of a file for one robot are
 * parsed once and kept while the file is, bounded as the files are: each entry weighs its file and its rules. As Scrapy's
 * robots.txt middleware does, a missing file (4xx) allows everything, and so does a file that cannot be
 * fetched for a reason of the network or of its redirects (an address refused, too many hops). A server that
 * answers with an error (5xx, or 429 Too Many Requests) makes the file unreachable: as RFC 9309 asks, the host's
 * pages wait until it is read, which the rules {@link #deferredUntil} name, with the time the file is asked again;
 * once {@value #SERVER_ERRORS_TO_GIVE_UP} such answers in a row have come (or fewer over as long), to any node of the
 * cluster ({@link ServerErrorRows}), everything is allowed instead, as Scrapy's middleware allows it, until the file is
 * read (docs/differences.md). Both are kept for the retry time only, then asked again. Of a file longer than
 * {@value #MAX_FILE_BYTES} bytes, that much is read and its whole lines parsed, the rest ignored, whatever the fetcher's
 * size limit: RFC 9309 asks for at least 500 KiB, and Google reads as much. A file that cannot be fetched again when
 * it expires leaves the file last read in force meanwhile, as Scrapy reads a file once and keeps it. Concurrent
 * requests for one host share one fetch. The files kept are bounded in number and in
 * bytes; the least likely to be asked again go first. A fetched file is read and parsed on the threads given for it,
 * not on the fetcher's, which other downloads wait for. Thread-safe.
 */
public final class RobotsCache {

    private static final Logger LOG = LoggerFactory.getLogger(RobotsCache.class);
    private static final int MAX_REDIRECTS = 5;
    /** The most of a file read: 500 KiB. */
    private static final int MAX_FILE_BYTES = 500 * 1024;
    private static final int TOO_MANY_REQUESTS = 429;
    /**
     * How many server errors (5xx, 429) in a row on the robots.txt of a host whose file was never read give up waiting
     * for the file, counted by the cluster's nodes together ({@link ServerErrorRows}): the errors before the last hold
     * the host's pages for the retry time each. So does an error that comes as many retry times less one after the first
     * of the row, however many came between. An error that comes more than this many retry times after the one before
     * it starts a row of its own: the host's pages were not asked for between them.
     */
    public static final int SERVER_ERRORS_TO_GIVE_UP = 3;
    private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");
    private static final SimpleRobotRules ALLOW_ALL = new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_ALL);

    private final Fetcher fetcher;
    private final RobotName robotName;
    private final Duration ttl;
    private final Duration retry;
    private final InstantSource clock;
    private final Executor reading;
    private final AsyncCache<String, Fetched> cache;
    /** The file last read from each host, in force while it cannot be read again. */
    private final Cache<String, RobotFile> lastRead;
    /** The answers in a row each host's server gave its robots.txt that were errors (5xx, 429), as the cluster counts them. */
    private final ServerErrorRows serverErrors;
    /** The rules of each file kept for each robot asked of it. */
    private final Cache<Robot, BaseRobotRules> parsed;

    /**
     * @param fetcher   fetches robots.txt files
     * @param robotName which robot a request is, and the node's own
     * @param ttl       how long fetched files are kept
     * @param retry     how long a file that could not be read is taken as unavailable or unreachable before it is
     *                  asked again ({@code ROBOTSTXT_RETRY_SECONDS})
     * @param maxHosts  how many hosts' files are kept at most, and how many files' rules for one robot
     * @param maxBytes  how many bytes of files are kept at most (the files last read, the same again)
     * @param serverErrors the server errors in a row each host's robots.txt answered with, counted by the cluster
     * @param clock     the clock the time to live is measured on
     * @param reading   the threads a fetched file is read and parsed on, and its rules given from
     */
    public RobotsCache(Fetcher fetcher, RobotName robotName, Duration ttl, Duration retry, long maxHosts, long maxBytes,
                       ServerErrorRows serverErrors, InstantSource clock, Executor reading) {
        this.fetcher = fetcher;
        this.robotName = robotName;
        this.ttl = ttl;
        this.retry = retry;
        this.clock = clock;
        this.reading = reading;
        Ticker ticker = () -> TimeUnit.MILLISECONDS.toNanos(clock.millis());
        // Caffeine bounds a cache by count or by weight, not both: a file weighs its bytes, and at least an even
        // share of the bytes among the hosts, so that neither bound is passed
        long share = Math.max(1, maxBytes / maxHosts);
        this.cache = Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .<String, Fetched>weigher((origin, fetched) -> RobotFile.weight(fetched.file(), share))
                .ticker(ticker)
                // an entry expires when its rules say the file is asked again, to the millisecond the ticker counts
                .expireAfter(Expiry.<String, Fetched>creating((origin, fetched) ->
                        Duration.ofMillis(Math.max(0, fetched.expires().toEpochMilli() - clock.millis()))))
                .recordStats()
                .buildAsync();
        this.lastRead = Caffeine.newBuilder().maximumWeight(maxBytes)
                .<String, RobotFile>weigher((origin, file) -> RobotFile.weight(file, share)).recordStats().build();
        this.serverErrors = serverErrors;
        // a file fetched again is another key: the rules of the one it replaces leave with their time or their room;
        // an entry holds its file as well as its rules, and both weigh, so that no count of large files passes the bound
        this.parsed = Caffeine.newBuilder().maximumWeight(maxBytes)
                .<Robot, BaseRobotRules>weigher((robot, rules) -> robot.weight(rules, share))
                .ticker(ticker).expireAfterWrite(ttl).recordStats().build();
    }

    /**
     * When the file is asked again, if {@code rules} are those of a host whose pages wait for its robots.txt: its server
     * answered the file with an error (5xx, 429), fewer than {@value #SERVER_ERRORS_TO_GIVE_UP} times in a row, and no
     * file of the host was read before. Such rules allow nothing (crawler-commons' "defer visits"). Empty for rules
     * that decide.
     */
    public static Optional<Instant> deferredUntil(BaseRobotRules rules) {
        return rules instanceof Deferred deferred ? Optional.of(deferred.until) : Optional.empty();
    }

    /**
     * Whether {@code rules} are those of a host whose robots.txt could not be fetched (a network failure, a timeout, a
     * redirect loop, or a server error while a file read before stays in force) until the file is asked again
     * {@code ROBOTSTXT_RETRY_SECONDS} later: everything allowed, as for a missing file, when it was never read, else the
     * rules of the file last read. Asking again would not read it sooner.
     */
    public static boolean unavailable(BaseRobotRules rules) {
        return rules instanceof Unavailable;
    }

    /**
     * The failure of the fetch of the file behind {@code rules} when it could not connect to the host (a name that did
     * not resolve, nothing accepting, no connection in time: {@link org.scrapycluster.crawler.fetch.FetchError#unconnected}),
     * kept with them until the file is asked again; empty for any other rules. A page of the host asked then would have
     * met it too.
     */
    public static Optional<FetchResult> unconnected(BaseRobotRules rules) {
        return rules instanceof Unavailable unavailable ? Optional.ofNullable(unavailable.unconnected) : Optional.empty();
    }

    /** The cache of files, for its metrics. */
    public AsyncCache<String, ?> hosts() {
        return cache;
    }

    /** The file last read from each host, in force while it cannot be read again: for their metrics. */
    public Cache<String, ?> lastRead() {
        return lastRead;
    }

    /** The rules parsed from each file for each robot asked of it: for their metrics. */
    public Cache<?, ?> rules() {
        return parsed;
    }

    /**
     * The rules of {@code url}'s host for the node's own robot ({@code ROBOTSTXT_USER_AGENT}, else {@code USER_AGENT}),
     * fetched when not cached; a URL without a host is allowed.
     */
    public CompletableFuture<BaseRobotRules> rulesFor(String url) {
        return rulesOf(url, robotName.nodeToken());
    }

    /**
     * The rules of {@code url}'s host for a request sending {@code userAgent} (null when it sends none of its own),
     * fetched when not cached; a URL without a host is allowed.
     */
    public CompletableFuture<BaseRobotRules> rulesFor(String url, String userAgent) {
        return rulesOf(url, robotName.tokenFor(userAgent));
    }

    private CompletableFuture<BaseRobotRules> rulesOf(String url, String token) {
        String origin;
        try {
            UrlParts parts = UrlParts.split(url);
            if (parts.scheme().isEmpty() || parts.hostname().isEmpty()) {
                return CompletableFuture.completedFuture(ALLOW_ALL);
            }
            origin = origin(parts);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(ALLOW_ALL);
        }
        CompletableFuture<Fetched> fetched = cache.get(origin, (key, executor) -> fetch(key + "/robots.txt", 0)
                .exceptionally(failure -> {
                    LOG.atWarn().addKeyValue("url", key + "/robots.txt").setCause(failure).log("Could not read robots.txt");
                    return Read.NOTHING;
                })
                .thenCompose(read -> {
                    Instant now = clock.instant();
                    RobotFile file = read.file();
                    if (file == RobotFile.UNREACHABLE) {
                        return serverError(key, now);
                    }
                    serverErrors.end(key);
                    if (file == null) {
                        return CompletableFuture.completedFuture(new Fetched(lastRead.getIfPresent(key), now.plus(retry), true,
                                read.unconnected()));
                    }
                    lastRead.put(key, file);
                    return CompletableFuture.completedFuture(new Fetched(file, now.plus(ttl), false, null));
                }));
        // a file kept is parsed for a robot not asked of it before on the asking thread; one fetched, on the reading threads
        // (also when its fetch failed, whose failure would otherwise reach here on the fetcher's thread)
        return fetched.isDone()
                ? fetched.thenApply(file -> rules(file, token))
                : fetched.thenApplyAsync(file -> rules(file, token), reading);
    }

    /**
     * The origin whose robots.txt speaks for a URL of {@code parts} (RFC 9309: its scheme, host and port), lower case,
     * its host in the ASCII form it is fetched by ({@code münchen.de} and {@code xn--mnchen-3ya.de} are one server):
     * without user info, which would name one server many ways and send credentials with the file's request, nor the
     * scheme's own port.
     *
     * @throws IllegalArgumentException when the port is no port
     */
    public static String origin(UrlParts parts) {
        String scheme = parts.scheme().toLowerCase(Locale.ROOT);
        String host = HostNames.normalize(parts.hostname());
        int port = parts.port();
        boolean schemePort = port == -1 || port == 80 && scheme.equals("http") || port == 443 && scheme.equals("https");
        return scheme + "://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + (schemePort ? "" : ":" + port);
    }

    /**
     * What a server error on {@code origin}'s robots.txt leaves in force until the file is asked again: the file last
     * read; else nothing, the host's pages waiting for the file; else, once the errors in a row the cluster counts have
     * given up ({@value #SERVER_ERRORS_TO_GIVE_UP} of them, or as many retry times less one since the first), everything,
     * said at WARN by the node whose error gave up. An error Redis could not count leaves the pages waiting.
     */
    private CompletableFuture<Fetched> serverError(String origin, Instant now) {
        Instant askAgain = now.plus(retry);
        RobotFile last = lastRead.getIfPresent(origin);
        if (last != null) {
            return CompletableFuture.completedFuture(new Fetched(last, askAgain, true, null));
        }
        String url = origin + "/robots.txt";
        return serverErrors.count(origin).handle((row, failure) -> {
            if (failure != null) {
                LOG.atWarn().addKeyValue("url", url).setCause(failure)
                        .log("robots.txt answers with a server error, which could not be counted; the host's pages wait until it is read");
                return new Fetched(RobotFile.UNREACHABLE, askAgain, false, null);
            }
            if (row.verdict() == ServerErrorRows.Verdict.WAIT) {
                LOG.atInfo().addKeyValue("url", url).addKeyValue("server_errors", row.errors())
                        .addKeyValue("retry_seconds", retry.toMillis() / 1000.0)
                        .log("robots.txt answers with a server error; the host's pages wait until it is read");
                return new Fetched(RobotFile.UNREACHABLE, askAgain, false, null);
            }
            if (row.verdict() == ServerErrorRows.Verdict.GIVE_UP) { // said once, by the node whose error gave up
                LOG.atWarn().addKeyValue("url", url).addKeyValue("server_errors", row.errors())
                        .log("robots.txt keeps answering with a server error; allowing the host everything until it is read");
            }
            return new Fetched(null, askAgain, false, null);
        });
    }

    /** The rules of {@code fetched}'s file for the robot {@code token} names (none: the {@code *} group), parsed once. */
    private BaseRobotRules rules(Fetched fetched, String token) {
        RobotFile file = fetched.file();
        if (file == RobotFile.UNREACHABLE) {
            return new Deferred(fetched.expires());
        }
        if (file == null) {
            return new Unavailable(ALLOW_ALL, fetched.unconnected());
        }
        BaseRobotRules rules = file == RobotFile.ALLOWING_ALL ? ALLOW_ALL : parsed.get(new Robot(file, token), Robot::parse);
        return fetched.kept() ? new Unavailable(rules, fetched.unconnected()) : rules;
    }

    /**
     * The file, as {@link Read} says; what a fetch could not connect to counts only on the origin's own host, not on one
     * its file redirects to.
     */
    private CompletableFuture<Read> fetch(String url, int redirects) {
        return fetcher.fetch(FetchRequest.get(url).withBodyCut(MAX_FILE_BYTES)).thenComposeAsync(result -> {
            if (!result.ok()) {
                LOG.atDebug().addKeyValue("url", url).addKeyValue("error", result.error()).log("robots.txt unavailable");
                return CompletableFuture.completedFuture(new Read(null, redirects == 0 && result.error().unconnected() ? result : null));
            }
            if (result.redirectLocation().isPresent() && redirects < MAX_REDIRECTS) {
                return fetch(result.redirectLocation().get(), redirects + 1);
            }
            return CompletableFuture.completedFuture(new Read(file(url, result), null));
        }, reading);
    }

    private static RobotFile file(String url, FetchResult result) {
        int status = result.status();
        if (status >= 200 && status < 300) {
            return new RobotFile(url, utf8(wholeLines(result.body())), contentType(result));
        }
        if (status >= 400 && status < 500 && status != TOO_MANY_REQUESTS) {
            return RobotFile.ALLOWING_ALL;
        }
        if (status >= 500 || status == TOO_MANY_REQUESTS) {
            return RobotFile.UNREACHABLE; // a server that is down, or that asks for fewer requests: nothing until it answers
        }
        return null; // a redirect past the last hop followed: unavailable, as RFC 9309 allows
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
     * The file as the parser reads it, which is UTF-8 unless a byte-order mark says UTF-16: a line whose bytes are not
     * UTF-8 is read as cp1252, as a page that declares no encoding is, so that a Latin-1 {@code Disallow: /café} forbids
     * what a link to {@code /café} becomes ({@code /caf%C3%A9}); the other lines stay UTF-8, so that a stray Latin-1
     * byte in a comment leaves {@code Disallow: /größe/} as written. Scrapy drops such bytes, forbidding {@code /caf}.
     */
    private static byte[] utf8(byte[] body) {
        boolean utf16 = BytePrefix.UTF_16_LE_MARK.starts(body) || BytePrefix.UTF_16_BE_MARK.starts(body);
        if (utf16 || EncodingDetector.isUtf8(body)) {
            return body;
        }
        ByteArrayOutputStream read = new ByteArrayOutputStream(body.length + body.length / 8);
        int start = 0;
        while (start < body.length) {
            int end = start;
            while (end < body.length && body[end] != '\n' && body[end] != '\r') {
                end++;
            }
            end = Math.min(body.length, end + 1); // its line break included: a file may end its lines with CR alone
            byte[] line = Arrays.copyOfRange(body, start, end);
            read.writeBytes(EncodingDetector.isUtf8(line) ? line : new String(line, WINDOWS_1252).getBytes(StandardCharsets.UTF_8));
            start = end;
        }
        return read.toByteArray();
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

    /**
     * A host's robots.txt as read, ready for the parser; compared by identity, so that the rules parsed from it are
     * not taken for those of the file that replaces it.
     */
    private static final class RobotFile {

        /** A missing file (4xx), which allows everything. */
        static final RobotFile ALLOWING_ALL = new RobotFile("", new byte[0], "text/plain");
        /** A file its server answered with an error (5xx, 429), which allows nothing until it is read. */
        static final RobotFile UNREACHABLE = new RobotFile("", new byte[0], "text/plain");

        private final String url;
        private final byte[] content;
        private final String contentType;

        RobotFile(String url, byte[] content, String contentType) {
            this.url = url;
            this.content = content;
            this.contentType = contentType;
        }

        /** What {@code file} (null: none) weighs in a cache whose entries weigh at least {@code share}. */
        static int weight(RobotFile file, long share) {
            long bytes = file == null ? 0 : file.content.length + file.url.length() + file.contentType.length();
            return (int) Math.min(Integer.MAX_VALUE, Math.max(bytes, share));
        }
    }

    /** A robot, by its token (empty: none, for the {@code *} group), asking one file. */
    private record Robot(RobotFile file, String token) {

        /** About how many bytes a sitemap takes beside its text: the objects around it. */
        private static final int PER_SITEMAP = 64;

        BaseRobotRules parse() {
            // the delays read once the tags are gone, as the parser reads them: <p>Crawl-delay: 1e3</p>
            RobotsMarkup.Readable readable = RobotsMarkup.readable(file.content, file.contentType);
            return PathRules.of(parser().parseContent(file.url, LongCrawlDelays.readable(readable.content()), readable.contentType(),
                    token.isEmpty() ? List.of() : List.of(token)));
        }

        /** What the file and {@code rules}, parsed from it, weigh in a cache whose entries weigh at least {@code share}. */
        int weight(BaseRobotRules rules, long share) {
            long bytes = RobotFile.weight(file, share) + token.length();
            if (rules instanceof PathRules paths) {
                bytes += paths.bytes();
            }
            for (String sitemap : rules.getSitemaps()) {
                bytes += sitemap.length() + PER_SITEMAP;
            }
            return (int) Math.min(Integer.MAX_VALUE, bytes);
        }
    }

    /**
     * What one fetch of a host's robots.txt read: the file; {@link RobotFile#ALLOWING_ALL} for a missing one;
     * {@link RobotFile#UNREACHABLE} when the server answers with an error; null when it is unavailable (a network error,
     * an address refused, a redirect loop), with the fetch's failure when it could not connect to the host.
     */
    private record Read(RobotFile file, FetchResult unconnected) {

        /** No file, and no failure to tell of the host: a fetch that failed in the crawler itself. */
        static final Read NOTHING = new Read(null, null);
    }

    /**
     * A host's file as it stands until {@code expires}, when it is asked again: the file read, or the one last read
     * ({@code kept}: reading it again failed, {@code unconnected} when for want of a connection to the host), or none
     * (which allows all), or {@link RobotFile#UNREACHABLE} while the host's pages wait for it.
     */
    private record Fetched(RobotFile file, Instant expires, boolean kept, FetchResult unconnected) {
    }

    /**
     * The rules in force because the file could not be read ({@link #unavailable}): those of the file last read, or
     * everything when none was; with the fetch's failure when it could not connect to the host ({@link #unconnected}).
     */
    private static final class Unavailable extends BaseRobotRules {

        private final BaseRobotRules rules;
        private final FetchResult unconnected;

        Unavailable(BaseRobotRules rules, FetchResult unconnected) {
            this.rules = rules;
            this.unconnected = unconnected;
            setCrawlDelay(rules.getCrawlDelay());
        }

        @Override
        public boolean isAllowed(String url) {
            return rules.isAllowed(url);
        }

        @Override
        public boolean isAllowed(URL url) {
            return rules.isAllowed(url);
        }

        @Override
        public boolean isAllowAll() {
            return rules.isAllowAll();
        }

        @Override
        public boolean isAllowNone() {
            return rules.isAllowNone();
        }
    }

    /** Rules that allow nothing until {@code until}, when the file its server answered with an error is asked again. */
    private static final class Deferred extends SimpleRobotRules {

        private final Instant until;

        Deferred(Instant until) {
            super(RobotRulesMode.ALLOW_NONE);
            setDeferVisits(true);
            this.until = until;
        }
    }
}
