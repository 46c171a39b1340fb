package org.scrapycluster.common.queue;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.scrapycluster.common.keyspace.CrawlerStatKey;
import org.scrapycluster.common.keyspace.KeyTemplate;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RecentPass;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisKeys;

/**
 * The spiders of the cluster, as a Redis monitor finds them with no index to read: those with leases
 * ({@code <spiderid>:leases}, for the lease reaper), those with an active-domain index
 * ({@code <spiderid>:active_domains}, for the backlog meters) and those crawler nodes run for (their heartbeats, for
 * the backlog meters too). All come from one pass over the keyspace ({@link RedisKeys#scanEach}), made when one of them
 * is asked for and the last pass is older than {@code period}, or than 39 times the shortest of the last three passes'
 * durations on a keyspace so large that it would otherwise take more than a fortieth of Redis's time
 * ({@link RecentPass}; docs/operations.md "Scans of the keyspace"). Between passes, each answers what the last pass
 * found. Thread-safe: the reaper and the meters ask from their own threads.
 */
public final class SpiderCensus {

    /** What one pass found. */
    private record Spiders(Set<String> withLeases, Set<String> withActiveDomains, Set<String> withCrawlers) {
    }

    private final RedisConnection redis;
    private final RecentPass<Spiders> recent;

    /** @param period the least time between two passes */
    public SpiderCensus(RedisConnection redis, Duration period, InstantSource clock) {
        this.redis = redis;
        this.recent = new RecentPass<>(period, clock, new Spiders(Set.of(), Set.of(), Set.of()));
    }

    /**
     * The spiders that had a {@code <spiderid>:leases} key at the last pass, after a pass if one is due.
     *
     * @throws io.lettuce.core.RedisException when a due pass fails (the next ask makes it again)
     */
    public Set<String> withLeases() {
        return recent.get(this::pass).withLeases();
    }

    /**
     * The spiders that had a {@code <spiderid>:active_domains} index at the last pass, after a pass if one is due.
     *
     * @throws io.lettuce.core.RedisException when a due pass fails (the next ask makes it again)
     */
    public Set<String> withActiveDomains() {
        return recent.get(this::pass).withActiveDomains();
    }

    /**
     * The spiders a crawler node ran for at the last pass, by their heartbeats ({@code stats:crawler:<host>:<spider>:<uuid12>},
     * which live while the node does), after a pass if one is due.
     *
     * @throws io.lettuce.core.RedisException when a due pass fails (the next ask makes it again)
     */
    public Set<String> withCrawlers() {
        return recent.get(this::pass).withCrawlers();
    }

    private Spiders pass() {
        List<List<String>> found = RedisKeys.scanEach(redis, List.of(Keyspace.LEASES.glob(), Keyspace.ACTIVE_DOMAINS.glob(),
                Keyspace.CRAWLER_HEARTBEAT.glob()));
        return new Spiders(spiders(found.get(0), Keyspace.LEASES), spiders(found.get(1), Keyspace.ACTIVE_DOMAINS),
                heartbeatSpiders(found.get(2)));
    }

    /** The spiders of the crawler heartbeats among {@code keys}; the glob also matches the crawlers' status counts. */
    private static Set<String> heartbeatSpiders(List<String> keys) {
        Set<String> spiders = new TreeSet<>();
        for (String key : keys) {
            CrawlerStatKey.parse(key).filter(CrawlerStatKey::heartbeat).map(CrawlerStatKey::spider)
                    .filter(spider -> !spider.isEmpty()).ifPresent(spiders::add);
        }
        return Collections.unmodifiableSet(spiders);
    }

    /**
     * The spiders named by {@code keys} of {@code template}, {@code <spiderid>:<suffix>}: a key whose first part is empty
     * or holds a {@code :} belongs to no spider (another key that ends the same way).
     */
    public static Set<String> spiders(List<String> keys, KeyTemplate template) {
        String suffix = template.suffix();
        Set<String> spiders = new TreeSet<>();
        for (String key : keys) {
            String spider = key.substring(0, key.length() - suffix.length());
            if (!spider.isEmpty() && spider.indexOf(':') < 0) {
                spiders.add(spider);
            }
        }
        return Collections.unmodifiableSet(spiders);
    }
}
