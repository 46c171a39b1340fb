package org.scrapycluster.redismonitor.stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RefusedKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queue backlogs (docs/compatibility.md §3.8): every {@code <spider>:<domain>:queue} of a recent pass over the
 * keyspace ({@link StatsKeys}), sized with {@code ZCARD} in one pipeline, as
 * {@code {"queue_<spider>": {spider_backlog, num_domains, domains: [{domain, backlog}]}, total_backlog}}.
 * Leased requests are not in their queue and not counted here (info counts them). A queue key of another type is
 * left out and logged once (docs/operations.md "Keys Redis refuses").
 */
final class QueueStats {

    private static final Logger LOG = LoggerFactory.getLogger(QueueStats.class);

    private final RedisConnection redis;
    private final StatsKeys keys;
    private final RefusedKeys refused = new RefusedKeys(LOG, "Counting the queues");

    QueueStats(RedisConnection redis, StatsKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** The section; with {@code perDomain} false the {@code domains} lists are left out (the stats dump's form). */
    Map<String, Object> read(boolean perDomain) {
        List<QueueKey> queues = keys.queues();
        List<CompletableFuture<Long>> sizes = new ArrayList<>(queues.size());
        for (QueueKey queue : queues) {
            sizes.add(redis.async().zcard(queue.key()).toCompletableFuture());
        }
        Map<String, SpiderBacklog> spiders = new TreeMap<>();
        long total = 0;
        for (int i = 0; i < queues.size(); i++) {
            long backlog = refused.await(redis, queues.get(i).key(), sizes.get(i)).orElse(0L);
            if (backlog > 0) {
                spiders.computeIfAbsent(queues.get(i).spiderId(), spider -> new SpiderBacklog()).add(queues.get(i).domain(), backlog);
                total += backlog;
            }
        }
        Map<String, Object> section = new LinkedHashMap<>();
        spiders.forEach((spider, backlog) -> section.put("queue_" + spider, backlog.describe(perDomain)));
        section.put("total_backlog", total);
        return section;
    }

    /** One spider's queues as they are added up. */
    private static final class SpiderBacklog {

        private final List<Map<String, Object>> domains = new ArrayList<>();
        private long backlog;

        void add(String domain, long size) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("domain", domain);
            entry.put("backlog", size);
            domains.add(entry);
            backlog += size;
        }

        Map<String, Object> describe(boolean perDomain) {
            Map<String, Object> spider = new LinkedHashMap<>();
            spider.put("spider_backlog", backlog);
            spider.put("num_domains", domains.size());
            if (perDomain) {
                spider.put("domains", domains);
            }
            return spider;
        }
    }
}
