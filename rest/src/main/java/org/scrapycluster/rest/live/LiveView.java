package org.scrapycluster.rest.live;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lettuce.core.RedisException;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RecentPass;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisKeys;
import org.scrapycluster.common.redis.Ticker;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.stats.CountedStatusCodes;
import org.scrapycluster.common.stats.StatsReader;
import org.scrapycluster.common.zookeeper.ConfigNodePath;
import org.scrapycluster.common.zookeeper.DomainThrottle;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.rest.http.Endpoint;
import org.scrapycluster.rest.http.HttpAnswer;
import org.scrapycluster.rest.ui.UiFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster as the web UI shows it, refreshed on a thread of its own and served as one JSON
 * snapshot by {@code GET /live} (docs/rest.md "Live view"): each refresh reads Redis once — the
 * heartbeats and rolling-window counters under {@code stats:*}, the totals of the active crawls and at most
 * {@code LIVE_MAX_ACCOUNTING_FIELDS} domain fields of their accounting, the throttle keys of the domains it judges —
 * and every call of the endpoint answers the bytes of the last refresh, so a hundred open pages cost what one costs.
 * The statistics and throttle keys are found by one pass over the keyspace, which costs Redis in proportion to its
 * whole keyspace: a refresh makes one only when the fastest of the last three took less than a fortieth of the time since
 * ({@link RecentPass}), and reuses the last pass's keys otherwise. It refreshes every
 * {@code LIVE_REFRESH_SECONDS} while a page asks for it, and every {@code LIVE_IDLE_REFRESH_SECONDS}
 * otherwise; the first call after a pause that finds the snapshot older than a refresh waits for one first. While
 * Redis is away the last snapshot stays, marked with the error.
 */
public final class LiveView implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LiveView.class);
    /** A page asking for {@code /live} at least this often, or three refreshes, if longer, is watching it. */
    private static final Duration WATCHED_FOR = Duration.ofSeconds(30);
    /**
     * The longest a call waits for a refresh of an unwatched view before answering the last snapshot: well within the
     * web UI's 10 s read timeout, so that a slow refresh on a large cluster gives the page an older snapshot rather
     * than "gateway unreachable".
     */
    private static final Duration CATCH_UP_WAIT = Duration.ofSeconds(5);
    /**
     * The globs of the keys a refresh looks for: statistics at their names and in their buckets, the throttle keys it
     * reads (windows and pauses; not the moderated throttle's {@code throttle_time}, one a domain, which it never reads),
     * and each spider's recorded queue lengths.
     */
    private static final List<String> SCANNED = Stream.concat(StatsReader.patterns(Keyspace.SERVICE_STATS.glob()).stream(),
            Stream.of(Keyspace.THROTTLE_WINDOW.glob(), Keyspace.THROTTLE_PAUSE.glob(), Keyspace.QUEUE_LENGTHS.glob())).toList();

    private final Supplier<Optional<RedisConnection>> redis;
    private final Clock clock;
    private final Duration refresh;
    private final long idleRefreshMillis;
    private final long watchedForMillis;
    private final Json json;
    private final DomainConfigView domainConfig;
    private final NodeList nodes;
    private final CrawlTable crawls;
    private final DomainTable domains;
    private final QueueHistory history = new QueueHistory();
    private final SpiderBacklog backlogs = new SpiderBacklog();
    private final CompletedCrawls completed;
    private final Set<Integer> countedCodes;
    private final Ticker ticker = new Ticker("rest-live-view");
    private final AtomicLong refreshes = new AtomicLong();
    /** The keys of {@link #SCANNED}, each glob's: a pass at each refresh on a small keyspace, paced on a large one. */
    private final RecentPass<List<List<String>>> keys;

    private ObjectNode last = JsonNodeFactory.instance.objectNode();
    private volatile byte[] snapshot;
    private volatile long snapshotMillis;
    /** When a page asking before Redis was ever read last waited for a refresh ({@link #unreadCatchUpDue}). */
    private volatile long unreadCatchUpMillis = Long.MIN_VALUE / 2;
    private volatile long lastAskedMillis;
    private final Object catchUpLock = new Object();
    private Future<?> catchUp;
    private boolean failing;
    /** Whether a refresh has read Redis; until one has, a page's call waits for a refresh (the first may come too early). */
    private volatile boolean readOnce;

    /**
     * @param settings the gateway's settings ({@code LIVE_*}, {@code QUEUE_HITS}, {@code QUEUE_WINDOW}, {@code ZOOKEEPER_*})
     * @param redis    the connection to Redis when it is up
     */
    public LiveView(Settings settings, Supplier<Optional<RedisConnection>> redis, Json json, Clock clock) {
        this.redis = redis;
        this.clock = clock;
        this.json = json;
        this.keys = new RecentPass<>(Duration.ZERO, clock, List.of(List.of(), List.of(), List.of(), List.of()));
        this.refresh = UiFiles.pageWait(settings, "LIVE_REFRESH_SECONDS"); // the web UI waits this long between its reads
        this.idleRefreshMillis = settings.getSeconds("LIVE_IDLE_REFRESH_SECONDS").toMillis();
        if (idleRefreshMillis < refresh.toMillis()) {
            throw settings.invalid("LIVE_IDLE_REFRESH_SECONDS", "must be at least LIVE_REFRESH_SECONDS");
        }
        this.watchedForMillis = Math.max(WATCHED_FOR.toMillis(), 3 * refresh.toMillis());
        this.domainConfig = new DomainConfigView(ZooKeeperConnection.of(settings),
                ConfigNodePath.of(settings));
        this.nodes = new NodeList(positive(settings, "LIVE_NODE_STALE_SECONDS") * 1000);
        this.crawls = new CrawlTable((int) positive(settings, "LIVE_MAX_CRAWLS"), positive(settings, "LIVE_MAX_ACCOUNTING_FIELDS"));
        this.domains = new DomainTable((int) positive(settings, "LIVE_MAX_DOMAINS"), DomainThrottle.defaultHits(settings),
                DomainThrottle.defaultWindow(settings));
        this.completed = new CompletedCrawls((int) positive(settings, "LIVE_MAX_COMPLETED"), crawls::started);
        this.countedCodes = CountedStatusCodes.from(settings).all();
        last.put("error", "not read yet");
        last.putNull("read_time_ms");
        this.snapshot = json.writeBytes(last);
    }

    /** Takes the crawl ends of the outbound topic (its messages without a uuid, and stop answers), for the completed crawls. */
    public Consumer<JsonNode> crawlEnds() {
        return completed;
    }

    /**
     * {@code GET /live}: the last snapshot, refreshed first when it is older than a refresh and nobody has asked for it
     * lately (the first call after a pause gets the cluster as it is, not as the last idle refresh saw it), when it is
     * older than the watch (the ticker fell behind), or when no refresh has read Redis yet (the gateway's first refresh
     * may come before its connection to Redis).
     */
    public Endpoint endpoint() {
        return call -> {
            long nowMillis = clock.millis();
            boolean unwatched = nowMillis - lastAskedMillis > watchedForMillis;
            lastAskedMillis = nowMillis;
            long age = nowMillis - snapshotMillis;
            if (!readOnce && unreadCatchUpDue(nowMillis) || age > watchedForMillis || unwatched && age > refresh.toMillis()) {
                awaitCatchUp();
            }
            return new HttpAnswer(200, HttpAnswer.JSON, snapshot);
        };
    }

    /**
     * Whether a page asking before Redis was ever read waits for a refresh: at most once a {@code LIVE_REFRESH_SECONDS},
     * so that while every refresh fails (an ACL, a key of another type) the pages open do not each make one.
     */
    private boolean unreadCatchUpDue(long nowMillis) {
        if (nowMillis - unreadCatchUpMillis < refresh.toMillis()) {
            return false;
        }
        unreadCatchUpMillis = nowMillis;
        return true;
    }

    /** Starts watching ZooKeeper and refreshing, the first time at once. */
    public void start() {
        domainConfig.start();
        ticker.every(Duration.ZERO, refresh, this::tick);
    }

    /** Refreshes when a page watches the view, or when the last refresh is {@code LIVE_IDLE_REFRESH_SECONDS} old. */
    void tick() {
        long nowMillis = clock.millis();
        if (nowMillis - lastAskedMillis <= watchedForMillis || nowMillis - snapshotMillis >= idleRefreshMillis) {
            refresh();
        }
    }

    /** Has the ticker's thread refresh now, once for every call waiting, and waits for it a while. */
    private void awaitCatchUp() {
        Future<?> pending;
        synchronized (catchUpLock) {
            if (catchUp == null || catchUp.isDone()) {
                catchUp = ticker.soon(this::refresh);
            }
            pending = catchUp;
        }
        try {
            pending.get(CATCH_UP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException | CancellationException e) {
            // the last snapshot is answered; its server_time says how old it is
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** How many refreshes have run. */
    long refreshes() {
        return refreshes.get();
    }

    /** Reads the cluster once and replaces the snapshot. */
    synchronized void refresh() {
        refreshes.incrementAndGet();
        long nowMillis = clock.millis();
        snapshotMillis = nowMillis;
        ObjectNode view = last.deepCopy();
        view.put("refresh_seconds", refresh.toMillis() / 1000.0);
        view.put("zookeeper_connected", domainConfig.connected());
        view.put("zookeeper_node", domainConfig.path());
        view.put("domain_config_known", domainConfig.known());
        Optional<RedisConnection> connection = redis.get();
        try {
            if (connection.isEmpty()) {
                throw new RedisException("Redis is not connected");
            }
            read(connection.get(), view, nowMillis);
            readOnce = true;
            view.put("read_time_ms", nowMillis);
            view.putNull("error");
            if (failing) {
                LOG.info("The live view reads Redis again");
                failing = false;
            }
        } catch (RuntimeException e) {
            // a Redis failure, or keys of a shape no writer of ours makes: the refreshes go on either way
            view.put("error", "Redis: " + e.getMessage() + (readOnce ? "; showing the last state read" : "; nothing read yet"));
            // a gateway still connecting is not yet failing to read: its Redis link says how the connecting goes
            if (!failing && !(connection.isEmpty() && !readOnce)) {
                LOG.warn(readOnce ? "The live view cannot read Redis ({}); it keeps its last state until Redis answers"
                        : "The live view cannot read Redis ({}); it shows nothing of the cluster until Redis answers", e.getMessage());
                failing = true;
            }
        }
        view.put("redis_connected", connection.map(RedisConnection::answers).orElse(false));
        view.set("completed", completed.rows());
        // dated when published, not when the refresh began: the page sets its clock by it
        long publishedMillis = clock.millis();
        view.put("server_time", publishedMillis / 1000);
        view.put("server_time_ms", publishedMillis);
        last = view;
        snapshot = json.writeBytes(view);
    }

    private void read(RedisConnection redis, ObjectNode view, long nowMillis) {
        long now = nowMillis / 1000;
        List<List<String>> scanned = keys.get(() -> RedisKeys.scanEach(redis, SCANNED));
        List<StatsKey> heartbeats = new ArrayList<>();
        List<StatsKey> counters = new ArrayList<>();
        for (String key : StatsReader.names(scanned.get(0), scanned.get(1))) {
            StatsKey.parse(key).ifPresent(parsed -> (parsed.heartbeat() ? heartbeats : counters).add(parsed));
        }
        ResponseCharts responses = ResponseCharts.read(redis, counters, countedCodes, now);
        CrawlTable.Reading crawlReading = crawls.read(redis, nowMillis);
        List<String> throttleKeys = Stream.concat(scanned.get(2).stream(), scanned.get(3).stream()).toList();
        // the hits in a domain's window are counted by the clock the crawlers' scripts stamp them with, Redis's
        DomainTable.Reading domainReading = domains.read(redis, throttleKeys, crawlReading.backlogByDomain(), domainConfig.config(),
                redis.serverTime().toEpochMilli());
        long backlog = backlogs.read(redis, scanned.get(4));
        history.add(now, backlog, domainReading.waiting());

        view.set("nodes", nodes.read(redis, heartbeats, responses, nowMillis));
        view.set("crawls", crawlReading.rows());
        view.set("domains", domainReading.rows());
        view.put("domains_partial", crawlReading.domainsPartial());
        view.put("backlog", crawlReading.backlog());
        view.put("backlog_total", backlog);
        view.put("active_crawls", crawlReading.active());
        ArrayNode codes = view.putArray("response_codes");
        responses.codes().forEach(codes::add);
        ObjectNode charts = view.putObject("charts");
        ResponseCharts.SPANS.forEach((name, span) -> {
            ObjectNode chart = charts.putObject(name);
            chart.set("pages", responses.chart(name));
            chart.set("queues", history.chart(span, now));
        });
    }

    @Override
    public void close() {
        ticker.close();
        domainConfig.close();
    }

    private static long positive(Settings settings, String name) {
        long value = settings.getLong(name);
        if (value < 1) {
            throw settings.invalid(name, "must be at least 1");
        }
        return value;
    }
}
