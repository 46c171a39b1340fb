package org.scrapycluster.common.keyspace;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Every Redis key, key prefix and pub/sub channel of the cluster, declared once (docs/architecture.md "Redis
 * keyspace"; the original's names are listed in docs/compatibility.md §1A). Java code asks this class
 * for a name; a Lua script receives the names it can know up front as {@code KEYS[]}, and the
 * patterns of the names it derives from what it reads (the crawl of a queue member, the domain of a
 * lease) in the {@code KEYSPACE} table of the {@code keyspace} library that {@link #luaLibrary}
 * renders from the same templates.
 */
public final class Keyspace {

    // the crawl queues, as the original
    /** {@code <spiderid>:<domain>:queue}: the ZSET of requests, scored by {@code -priority}. */
    public static final KeyTemplate QUEUE = KeyTemplate.of("queue", "{spider}:{domain}:queue");
    /** {@code <spiderid>:blacklist}: the SET of {@code <appid>||<crawlid>} of stopped and expired crawls. */
    public static final KeyTemplate BLACKLIST = KeyTemplate.of("blacklist", "{spider}:blacklist");
    /** {@code <appid>||<crawlid>}: a crawl's member of {@link #BLACKLIST}. */
    public static final KeyTemplate BLACKLIST_ENTRY = KeyTemplate.of("blacklist_entry", "{appid}||{crawlid}");
    /** {@code <spiderid>:dupefilter:<crawlid>}: the request fingerprints seen by a crawl. */
    public static final KeyTemplate DUPEFILTER = KeyTemplate.of("dupefilter", "{spider}:dupefilter:{crawlid}");
    /** {@code <spider>:domain_max_page_filter:<domain>:<crawlid>}: a crawl's {@code domain_max_pages} counter. */
    public static final KeyTemplate DOMAIN_MAX_PAGE_FILTER =
            KeyTemplate.of("domain_max_page_filter", "{spider}:domain_max_page_filter:{domain}:{crawlid}");
    /** {@code <spider>:global_page_count_filter:<domain>:<crawlid>}: the {@code GLOBAL_PAGE_PER_DOMAIN_LIMIT} counter. */
    public static final KeyTemplate GLOBAL_PAGE_COUNT_FILTER =
            KeyTemplate.of("global_page_count_filter", "{spider}:global_page_count_filter:{domain}:{crawlid}");
    /** {@code <throttlekey>:throttle_window}: the hand-outs of the last window. */
    public static final KeyTemplate THROTTLE_WINDOW = KeyTemplate.of("throttle_window", "{throttlekey}:throttle_window");
    /** {@code <throttlekey>:throttle_time}: the last moderated hand-out. */
    public static final KeyTemplate THROTTLE_TIME = KeyTemplate.of("throttle_time", "{throttlekey}:throttle_time");
    /** {@code <throttlekey>:throttle_pause} (additive): while it exists with a time to live nothing is handed out under the key. */
    public static final KeyTemplate THROTTLE_PAUSE = KeyTemplate.of("throttle_pause", "{throttlekey}:throttle_pause");
    /**
     * {@code robots:server_errors:<origin>} (additive): the server errors in a row that a host's robots.txt, never read,
     * answered the crawler nodes with, counted by all of them together.
     */
    public static final KeyTemplate ROBOTS_SERVER_ERRORS = KeyTemplate.of("robots_server_errors", "robots:server_errors:{origin}");

    /** {@code <spiderid>:…}: every key that starts with a spider id. */
    public static final KeyTemplate SPIDER_KEYS = KeyTemplate.of("spider_keys", "{spider}:{rest}");

    // leases, readiness and crawl accounting (additive)
    /** {@code <spiderid>:leased}: lease id to the leased queue member. */
    public static final KeyTemplate LEASED = KeyTemplate.of("leased", "{spider}:leased");
    /** {@code <spiderid>:leases}: lease id scored by its deadline in epoch milliseconds. */
    public static final KeyTemplate LEASES = KeyTemplate.of("leases", "{spider}:leases");
    /** {@code <spiderid>:active_domains}: domains with queued work, scored by when they became non-empty. */
    public static final KeyTemplate ACTIVE_DOMAINS = KeyTemplate.of("active_domains", "{spider}:active_domains");
    /** {@code <spiderid>:active_domains:marker}: the last score given in {@link #ACTIVE_DOMAINS}, which only grows; kept a day. */
    public static final KeyTemplate ACTIVATION_MARKER = KeyTemplate.of("activation_marker", "{spider}:active_domains:marker");
    /**
     * {@code <spiderid>:active_domains:added}: the pub/sub channel (no key) on which a domain is published when it
     * enters {@link #ACTIVE_DOMAINS}, so that crawler nodes look at once.
     */
    public static final KeyTemplate ACTIVATIONS = KeyTemplate.of("activations", "{spider}:active_domains:added");
    /**
     * {@code <spiderid>:queue_scan}: set for {@code SCHEDULER_QUEUE_REFRESH} by the crawler node whose turn it is to scan the
     * keyspace for queues kept out of {@link #ACTIVE_DOMAINS}, so that a cluster scans once a period, not once a node.
     */
    public static final KeyTemplate QUEUE_SCAN_TURN = KeyTemplate.of("queue_scan_turn", "{spider}:queue_scan");
    /**
     * {@code <spiderid>:queue_lengths}: domain to the length its queue had when one of our scripts
     * last changed it; a {@code ZCARD} that differs means a process that keeps no accounting moved requests.
     */
    public static final KeyTemplate QUEUE_LENGTHS = KeyTemplate.of("queue_lengths", "{spider}:queue_lengths");
    /** {@code <spiderid>:<appid>:<crawlid>}: a crawl's name, the member of the {@code crawls:…} sets. */
    public static final KeyTemplate CRAWL_NAME = KeyTemplate.of("crawl_name", "{spider}:{appid}:{crawlid}");
    /** {@code crawl:<spiderid>:<appid>:<crawlid>}: a crawl's accounting HASH. */
    public static final KeyTemplate ACCOUNTING = KeyTemplate.of("accounting", "crawl:{spider}:{appid}:{crawlid}");
    /**
     * {@code purged:<spiderid>:<appid>:<crawlid>}: the requests purges of a stopped or expired crawl removed that no
     * answer has counted yet, so that a stop cut off mid-purge and done again answers for both.
     */
    public static final KeyTemplate PURGED = KeyTemplate.of("purged", "purged:{spider}:{appid}:{crawlid}");
    /** {@code crawls:<spiderid>:<appid>}: the SET of the app's crawlids that have accounting. */
    public static final KeyTemplate CRAWLS_OF_APP = KeyTemplate.of("crawls_of_app", "crawls:{spider}:{appid}");
    /** The ZSET of crawls ordered by their last activity, in epoch milliseconds. */
    public static final String CRAWLS_ACTIVE = "crawls:active";
    /**
     * The SET of crawls whose accounting cannot answer for them, because a process that keeps none (a
     * Python crawler or Kafka monitor) moved some of their requests (docs/operations.md "Mixed Python
     * and Java clusters").
     */
    public static final String CRAWLS_FOREIGN = "crawls:foreign";
    /**
     * The HASH of crawls of {@link #CRAWLS_FOREIGN} that a completion check found with nothing queued or leased, each to
     * the number of requests its dupefilter held then (a SET named {@code crawls:drained} in builds before 2026-12-06).
     */
    public static final String CRAWLS_DRAINED = "crawls:drained_seen";
    /** The LIST of announcements of retired crawls that no Kafka has taken yet, oldest first. */
    public static final String CRAWLS_COMPLETED = "crawls:completed";

    // jobs of the Redis monitor, as the original, plus their signal and waiting lists
    /** {@code info:<spiderid>:<appid>}: an app-level info request; its value is the request's uuid. */
    public static final KeyTemplate INFO_APP = KeyTemplate.of("info_app", "info:{spider}:{appid}");
    /** {@code info:<spiderid>:<appid>:<crawlid>}: a crawl-level info request. */
    public static final KeyTemplate INFO_CRAWL = KeyTemplate.of("info_crawl", "info:{spider}:{appid}:{crawlid}");
    /** {@code stop:<spiderid>:<appid>}: a stop request without crawlid, answered with an error. */
    public static final KeyTemplate STOP_APP = KeyTemplate.of("stop_app", "stop:{spider}:{appid}");
    /** {@code stop:<spiderid>:<appid>:<crawlid>}: a stop request. */
    public static final KeyTemplate STOP_CRAWL = KeyTemplate.of("stop_crawl", "stop:{spider}:{appid}:{crawlid}");
    /** {@code statsrequest:<stats>:<appid>}: a stats request of one type. */
    public static final KeyTemplate STATS_REQUEST = KeyTemplate.of("stats_request", "statsrequest:{stats}:{appid}");
    /** {@code zk:<action>:<domain>:<appid>}: a domain config edit; its value is a small JSON object. */
    public static final KeyTemplate ZOOKEEPER = KeyTemplate.of("zookeeper", "zk:{action}:{domain}:{appid}");
    /** {@code timeout:<spiderid>:<appid>:<crawlid>}: when a crawl expires, as an epoch in seconds. */
    public static final KeyTemplate TIMEOUT = KeyTemplate.of("timeout", "timeout:{spider}:{appid}:{crawlid}");
    /** The LIST of job key names waiting to be picked up (additive). */
    public static final String JOBS_SIGNAL = "jobs:signal";
    /**
     * {@code jobs:scan_turn:<plugins>} (additive): set by the Redis monitor whose turn it is to scan the keyspace for the
     * job keys of these plugins (their names, sorted, comma-separated), until its pause after the scan ends, so that a
     * cluster scans for jobs once a pause, not once a monitor; monitors that run other plugins take turns of their own.
     */
    public static final KeyTemplate JOBS_SCAN_TURN = KeyTemplate.of("jobs_scan_turn", "jobs:scan_turn:{plugins}");
    /** {@code jobs:<job key>:waiting} (additive): the values written to a job key since it was last handled. */
    public static final KeyTemplate JOB_WAITING = KeyTemplate.of("job_waiting", "jobs:{jobkey}:waiting");
    /**
     * {@code jobs:<job key>:answers} (additive): a HASH of value -> the answers worked out for it that Kafka has not
     * taken yet, so that whichever monitor handles the job next sends them rather than doing the work again.
     */
    public static final KeyTemplate JOB_ANSWERS = KeyTemplate.of("job_answers", "jobs:{jobkey}:answers");
    /** {@code lock:<key>}: a lock held by one process. */
    public static final KeyTemplate LOCK = KeyTemplate.of("lock", "lock:{key}");
    /** {@code lock:<job key>:failures}: how often handling a job failed. */
    public static final KeyTemplate LOCK_FAILURES = KeyTemplate.of("lock_failures", "lock:{jobkey}:failures");
    /** The name locked by the one Redis monitor that exports the queue backlog meters (additive). */
    public static final String BACKLOG_METERS_LOCK = "metrics:backlog";
    /** The name locked by the one Redis monitor that sends the announcements of {@link #CRAWLS_COMPLETED} (additive). */
    public static final String COMPLETED_SENDER_LOCK = CRAWLS_COMPLETED;

    // REST answers and statistics, as the original
    /** {@code rest:poll:<uuid>}: an outbound answer no caller was waiting for. */
    public static final KeyTemplate REST_POLL = KeyTemplate.of("rest_poll", "rest:poll:{uuid}");
    /** {@code stats:<service>:<counter>}: the prefix of a service's counter ({@code stats:kafka-monitor:total}). */
    public static final KeyTemplate SERVICE_STATS = KeyTemplate.of("service_stats", "stats:{service}:{counter}");
    /** {@code stats:crawler:<host>:<spider>:<counter>}: the prefix of a crawler's counter (a status code). */
    public static final KeyTemplate CRAWLER_STATS = KeyTemplate.of("crawler_stats", "stats:crawler:{host}:{spider}:{counter}");
    /** {@code stats:crawler:<host>:<spider>}: what every counter of a crawler host and spider starts with. */
    public static final KeyTemplate CRAWLER_COUNTERS = KeyTemplate.of("crawler_counters", "stats:crawler:{host}:{spider}");
    /** {@code <counter>:<window seconds>}: a rolling window of a counter. */
    public static final KeyTemplate STATS_WINDOW = KeyTemplate.of("stats_window", "{counter}:{window}");
    /**
     * {@code buckets:<window key>} (additive): a rolling window kept as our HASH of time buckets, named apart from the
     * original's {@code stats:…} name, which the Python services {@code ZADD} to and {@code ZCARD}, so that they never
     * meet a HASH there (docs/operations.md "Mixed Python and Java clusters"). Not written with {@code STATS_ORIGINAL_KEYS}.
     */
    public static final KeyTemplate STATS_BUCKETS = KeyTemplate.of("stats_buckets", "buckets:{window}");
    /** {@code <counter>:lifetime}: a counter's lifetime HyperLogLog. */
    public static final KeyTemplate STATS_LIFETIME = KeyTemplate.of("stats_lifetime", "{counter}:lifetime");
    /** {@code stats:<service>:self:<host>:<uuid12>}: a service process's heartbeat. */
    public static final KeyTemplate HEARTBEAT = KeyTemplate.of("heartbeat", "stats:{service}:self:{node}");
    /**
     * The cluster's mark in its Redis (additive): written once by the Redis monitors, if absent, and never expiring, so
     * that its absence after it was there tells them Redis lost the cluster's keys (restarted without its data, flushed).
     */
    public static final String KEYSPACE_MARK = "cluster:keyspace";
    /** {@code stats:crawler:<host>:<spider>:<uuid12>}: a crawler node's heartbeat. */
    public static final KeyTemplate CRAWLER_HEARTBEAT = KeyTemplate.of("crawler_heartbeat", "stats:crawler:{host}:{spider}:{uuid12}");

    /** The templates of the keys of one spider whose first hole is the spider id ({@link #spiderGlobs}). */
    private static final List<KeyTemplate> KEYS_OF_A_SPIDER = List.of(QUEUE, BLACKLIST, DUPEFILTER, DOMAIN_MAX_PAGE_FILTER,
            GLOBAL_PAGE_COUNT_FILTER, LEASED, LEASES, ACTIVE_DOMAINS, ACTIVATION_MARKER, QUEUE_SCAN_TURN, QUEUE_LENGTHS, ACCOUNTING,
            PURGED, CRAWLS_OF_APP);

    /** Every template, in the order of docs/architecture.md. */
    public static final List<KeyTemplate> ALL = List.of(SPIDER_KEYS, QUEUE, BLACKLIST, BLACKLIST_ENTRY, DUPEFILTER,
            DOMAIN_MAX_PAGE_FILTER, GLOBAL_PAGE_COUNT_FILTER, THROTTLE_WINDOW, THROTTLE_TIME, THROTTLE_PAUSE, ROBOTS_SERVER_ERRORS, LEASED,
            LEASES,
            ACTIVE_DOMAINS, ACTIVATION_MARKER, ACTIVATIONS, QUEUE_SCAN_TURN, QUEUE_LENGTHS, CRAWL_NAME, ACCOUNTING, PURGED, CRAWLS_OF_APP,
            fixed(CRAWLS_ACTIVE), fixed(CRAWLS_FOREIGN), fixed(CRAWLS_DRAINED),
            fixed(CRAWLS_COMPLETED), INFO_APP, INFO_CRAWL, STOP_APP, STOP_CRAWL, STATS_REQUEST, ZOOKEEPER, TIMEOUT, fixed(JOBS_SIGNAL), JOBS_SCAN_TURN,
            JOB_WAITING, JOB_ANSWERS, LOCK, LOCK_FAILURES, REST_POLL, SERVICE_STATS, CRAWLER_STATS, CRAWLER_COUNTERS, STATS_WINDOW,
            STATS_BUCKETS, STATS_LIFETIME, HEARTBEAT,
            CRAWLER_HEARTBEAT, fixed(KEYSPACE_MARK));

    private Keyspace() {
    }

    private static KeyTemplate fixed(String name) {
        return KeyTemplate.of(name.replace(':', '_'), name);
    }

    /** {@code <spiderid>:<domain>:queue}. */
    public static String queue(String spiderId, String domain) {
        return QUEUE.fill(spiderId, domain);
    }

    /** {@code <spiderid>:blacklist}. */
    public static String blacklist(String spiderId) {
        return BLACKLIST.fill(spiderId);
    }

    /** {@code <spiderid>:leased}. */
    public static String leased(String spiderId) {
        return LEASED.fill(spiderId);
    }

    /** {@code <spiderid>:leases}. */
    public static String leases(String spiderId) {
        return LEASES.fill(spiderId);
    }

    /** {@code <spiderid>:queue_lengths}. */
    public static String queueLengths(String spiderId) {
        return QUEUE_LENGTHS.fill(spiderId);
    }

    /** {@code <spiderid>:active_domains}. */
    public static String activeDomains(String spiderId) {
        return ACTIVE_DOMAINS.fill(spiderId);
    }

    /** {@code <spiderid>:active_domains:added}, a pub/sub channel. */
    public static String activations(String spiderId) {
        return ACTIVATIONS.fill(spiderId);
    }

    /** {@code crawls:<spiderid>:<appid>}. */
    public static String crawlsOfApp(String spiderId, String appid) {
        return CRAWLS_OF_APP.fill(spiderId, appid);
    }

    /** {@code <spiderid>:dupefilter:<crawlid>}. */
    public static String dupefilter(String spiderId, String crawlid) {
        return DUPEFILTER.fill(spiderId, crawlid);
    }

    /** {@code <spider>:domain_max_page_filter:<domain>:<crawlid>}. */
    public static String domainMaxPageFilter(String spider, String domain, String crawlid) {
        return DOMAIN_MAX_PAGE_FILTER.fill(spider, domain, crawlid);
    }

    /** {@code <spider>:global_page_count_filter:<domain>:<crawlid>}. */
    public static String globalPageCountFilter(String spider, String domain, String crawlid) {
        return GLOBAL_PAGE_COUNT_FILTER.fill(spider, domain, crawlid);
    }

    /**
     * {@code [<spiderid>:][<public ip>:]<domain>}: the throttle key of a domain, with the spider id
     * when throttling per spider type and the public IP when throttling per outgoing address
     * (docs/throttling.md); either may be null to leave it out.
     */
    public static String throttleKey(String spiderId, String publicIp, String domain) {
        StringBuilder key = new StringBuilder();
        if (spiderId != null) {
            key.append(spiderId).append(':');
        }
        if (publicIp != null) {
            key.append(publicIp).append(':');
        }
        return key.append(domain).toString();
    }

    /**
     * The globs of every key of one spider: its queues, blacklist, dupefilters, page counters, leases, active domains,
     * queue lengths, its throttle keys when throttling per spider type, and its crawls' accounting. For cleaning up
     * after a benchmark or a test. Each glob names the kind of key it matches rather than {@code <spiderid>:*}, which
     * for a spider named {@code buckets} would match our statistics ({@link #STATS_BUCKETS}) too, and for one named
     * like another key's prefix ({@code stats}, {@code crawl}) the keys of every spider.
     */
    public static List<String> spiderGlobs(String spiderId) {
        String throttleKeys = SPIDER_KEYS.glob(spiderId);
        return Stream.concat(KEYS_OF_A_SPIDER.stream().map(template -> template.glob(spiderId)),
                Stream.of(THROTTLE_WINDOW, THROTTLE_TIME, THROTTLE_PAUSE).map(template -> template.globOf(throttleKeys))).toList();
    }

    /** {@code buckets:<window key>}: where our HASH of time buckets of the rolling window {@code windowKey} is kept. */
    public static String statsBuckets(String windowKey) {
        return STATS_BUCKETS.fill(windowKey);
    }

    /**
     * The rolling window whose time buckets {@code key} holds ({@code stats:kafka-monitor:total:900} of
     * {@code buckets:stats:kafka-monitor:total:900}); empty when {@code key} is not such a name.
     */
    public static Optional<String> windowOfBuckets(String key) {
        String prefix = STATS_BUCKETS.prefix();
        return key.startsWith(prefix) && key.length() > prefix.length() ? Optional.of(key.substring(prefix.length())) : Optional.empty();
    }

    /** {@code lock:<key>}. */
    public static String lock(String key) {
        return LOCK.fill(key);
    }

    /**
     * The {@code keyspace} library of a Lua script: the table {@code KEYSPACE} of the templates the
     * script names ({@code KEYSPACE.accounting(spider, appid, crawlid)}, {@code KEYSPACE.crawls_active}),
     * each rendered by {@link KeyTemplate#luaExpression()}. Only the templates named in {@code source}
     * are rendered, because a script runs its whole text on every call; a script that looks templates
     * up by a computed name ({@code KEYSPACE[name]}) gets every template.
     */
    public static String luaLibrary(String source) {
        boolean all = source.contains("KEYSPACE[");
        StringBuilder lua = new StringBuilder("-- rendered by org.scrapycluster.common.keyspace.Keyspace, which names every key\n");
        lua.append("local KEYSPACE = {\n");
        for (KeyTemplate template : ALL) {
            if (all || source.contains("KEYSPACE." + template.name())) {
                lua.append("  ").append(template.name()).append(" = ").append(template.luaExpression()).append(",\n");
            }
        }
        return lua.append("}\n").toString();
    }
}
