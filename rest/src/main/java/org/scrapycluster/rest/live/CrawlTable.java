package org.scrapycluster.rest.live;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lettuce.core.ScoredValue;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.CrawlCount;
import org.scrapycluster.common.queue.CrawlCounts;
import org.scrapycluster.common.queue.CrawlRef;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RefusedKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The active crawls, from the crawl accounting (docs/architecture.md "Crawl accounting"): the most
 * recently active {@code LIVE_MAX_CRAWLS} members of {@code crawls:active} with their pages,
 * pending requests, expiry and last activity; their pages a second over the last minute, from the
 * change of their page counts between refreshes; and when this gateway first saw them (no key
 * records a crawl's start), which is the crawl's start only for a crawl that appeared after the gateway's first
 * reading: one already active then started earlier, at a time nobody knows. Counts all active crawls, listed or
 * not. Also sums their pending requests by domain, for the domain table and
 * the backlog chart. A crawl whose accounting Redis refuses (of another type) is left out and logged once
 * (docs/operations.md "Keys Redis refuses"). Refreshed on the live view's thread; {@link #started} may be asked from any.
 */
final class CrawlTable {

    private static final long RATE_MILLIS = 60_000;
    private static final long FORGET_MILLIS = 3_600_000;

    private static final Logger LOG = LoggerFactory.getLogger(CrawlTable.class);

    private final int maxCrawls;
    private final RefusedKeys refused = new RefusedKeys(LOG, "The live view");
    private final Map<String, Deque<long[]>> pageHistory = new HashMap<>();
    private final Map<String, Long> firstSeen = new ConcurrentHashMap<>();
    /** The crawls already active at the first reading: when they started is not known. */
    private final Set<String> startUnknown = ConcurrentHashMap.newKeySet();
    private final Map<String, Long> leftAt = new HashMap<>();
    private boolean firstReadingDone;

    CrawlTable(int maxCrawls) {
        this.maxCrawls = maxCrawls;
    }

    /** What one refresh read; {@code active} counts every active crawl, {@code rows} the listed ones. */
    record Reading(ArrayNode rows, Map<String, Long> backlogByDomain, long backlog, long active) {
    }

    Reading read(RedisConnection redis, long nowMillis) {
        CrawlCounts counts = new CrawlCounts(redis);
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        Map<String, Long> byDomain = new TreeMap<>();
        long backlog = 0;
        Set<String> present = new HashSet<>();
        for (ScoredValue<String> member : redis.sync().zrevrangeWithScores(Keyspace.CRAWLS_ACTIVE, 0, maxCrawls - 1L)) {
            CrawlRef crawl;
            try {
                crawl = CrawlRef.parse(member.getValue());
            } catch (IllegalArgumentException e) {
                continue;
            }
            Optional<CrawlCount> read = refused.read(crawl.name(), () -> counts.crawl(crawl).orElse(null));
            if (read.isEmpty()) {
                continue;
            }
            CrawlCount count = read.get();
            present.add(crawl.name());
            leftAt.remove(crawl.name());
            long seen = firstSeen.computeIfAbsent(crawl.name(), name -> {
                if (!firstReadingDone) {
                    startUnknown.add(name);
                }
                return nowMillis;
            });
            ObjectNode row = rows.addObject();
            row.put("appid", crawl.appid());
            row.put("crawlid", crawl.crawlid());
            row.put("spiderid", crawl.spiderId());
            row.put("pages", count.pages());
            row.put("pending", count.pending());
            row.put("pages_per_second", rate(crawl.name(), count.pages(), nowMillis));
            row.put("first_seen", seen / 1000);
            row.put("start_known", !startUnknown.contains(crawl.name()));
            row.put("last_activity", Math.round(member.getScore()) / 1000);
            row.put("expires", count.expires());
            row.put("domains", count.totalDomains());
            backlog += count.pending();
            count.domains().forEach((domain, queued) -> byDomain.merge(domain, queued.total(), Long::sum));
        }
        pageHistory.keySet().retainAll(present);
        firstSeen.keySet().forEach(name -> {
            if (!present.contains(name)) {
                leftAt.putIfAbsent(name, nowMillis);
            }
        });
        leftAt.entrySet().removeIf(gone -> {
            boolean old = nowMillis - gone.getValue() > FORGET_MILLIS;
            if (old) {
                firstSeen.remove(gone.getKey());
                startUnknown.remove(gone.getKey());
            }
            return old;
        });
        firstReadingDone = true;
        return new Reading(rows, byDomain, backlog, redis.sync().zcard(Keyspace.CRAWLS_ACTIVE));
    }

    /**
     * When {@code crawl} started, as this gateway saw it appear, in epoch milliseconds; empty when it did not see it
     * within the last hour, or it was already active at the gateway's first reading.
     */
    OptionalLong started(CrawlRef crawl) {
        Long seen = firstSeen.get(crawl.name());
        return seen == null || startUnknown.contains(crawl.name()) ? OptionalLong.empty() : OptionalLong.of(seen);
    }

    private double rate(String crawl, long pages, long nowMillis) {
        Deque<long[]> history = pageHistory.computeIfAbsent(crawl, name -> new ArrayDeque<>());
        history.addLast(new long[] {nowMillis, pages});
        while (history.size() > 1 && nowMillis - history.getFirst()[0] > RATE_MILLIS) {
            history.removeFirst();
        }
        long[] oldest = history.getFirst();
        long millis = nowMillis - oldest[0];
        return millis <= 0 ? 0 : Math.round(Math.max(0, pages - oldest[1]) * 1_000_000.0 / millis) / 1000.0;
    }
}
