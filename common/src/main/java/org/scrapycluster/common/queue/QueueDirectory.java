package org.scrapycluster.common.queue;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisKeys;

/**
 * Finds queues and lease sets by scanning the keyspace ({@code SCAN}, never {@code KEYS}): the
 * fallback that discovers queues written by components that do not maintain
 * {@code <spiderid>:active_domains} (a Python Kafka monitor), and the source of queue statistics.
 * A scan visits the whole keyspace; callers run it every few seconds, not per decision.
 */
public final class QueueDirectory {

    private static final String LEASES_SUFFIX = Keyspace.LEASES.suffix();
    private static final List<String> ACCOUNTING_PREFIXES = List.of(Keyspace.ACCOUNTING.prefix(), Keyspace.CRAWLS_OF_APP.prefix());

    private final RedisConnection redis;

    public QueueDirectory(RedisConnection redis) {
        this.redis = redis;
    }

    /** The domain queues of {@code spiderId}. */
    public List<QueueKey> queues(String spiderId) {
        return parse(RedisKeys.scan(redis, Keyspace.QUEUE.glob(spiderId)));
    }

    /** The domain queues of every spider. */
    public List<QueueKey> allQueues() {
        return parse(RedisKeys.scan(redis, Keyspace.QUEUE.glob()));
    }

    /** The spiders that have a {@code <spiderid>:leases} key. */
    public Set<String> spidersWithLeases() {
        Set<String> spiders = new TreeSet<>();
        for (String key : RedisKeys.scan(redis, "*" + LEASES_SUFFIX)) {
            String spider = key.substring(0, key.length() - LEASES_SUFFIX.length());
            if (!spider.isEmpty() && spider.indexOf(':') < 0) {
                spiders.add(spider);
            }
        }
        return spiders;
    }

    private List<QueueKey> parse(List<String> keys) {
        return keys.stream().filter(this::mayBeQueue).map(QueueKey::tryParse).flatMap(Optional::stream)
                .sorted(Comparator.comparing(QueueKey::key)).toList();
    }

    /**
     * False for a key of the crawl accounting that the queue pattern matches: {@code crawls:<spiderid>:<appid>} of
     * the appid {@code queue}, {@code crawl:<spiderid>:<appid>:<crawlid>} of the crawlid {@code queue}. Such a
     * name is a queue only if it holds a sorted set (a spider named {@code crawls} has real queues), which
     * {@code TYPE} tells; any other name is taken on its shape alone.
     */
    private boolean mayBeQueue(String key) {
        return ACCOUNTING_PREFIXES.stream().noneMatch(key::startsWith) || "zset".equals(redis.sync().type(key));
    }
}
