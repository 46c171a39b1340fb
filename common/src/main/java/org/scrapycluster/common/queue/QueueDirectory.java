package org.scrapycluster.common.queue;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.scrapycluster.common.domain.RegisteredDomain;
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
        return keys.stream().map(QueueKey::tryParse).flatMap(Optional::stream).filter(this::isQueue)
                .sorted(Comparator.comparing(QueueKey::key)).toList();
    }

    /**
     * Whether a name the queue pattern matches is a queue. Other keys end in {@code :queue} too when an id is
     * {@code queue}: the crawl accounting ({@code crawls:<spiderid>:<appid>}, {@code crawl:<spiderid>:<appid>:<crawlid>}),
     * a crawl's dupefilter ({@code <spiderid>:dupefilter:<crawlid>}), page-limit counters and timeout key; taken
     * for queues, they would fail every hand-out, purge or count that reads them. Such a name is a queue only if it
     * holds a sorted set (a spider named {@code crawls} has real queues), which {@code TYPE} tells; a name whose
     * domain is a registered domain as ours are spelt is taken on its shape alone.
     */
    private boolean isQueue(QueueKey queue) {
        String key = queue.key();
        boolean otherKeyMayHaveTheName = ACCOUNTING_PREFIXES.stream().anyMatch(key::startsWith)
                || !RegisteredDomain.isRegisteredDomain(queue.domain());
        return !otherKeyMayHaveTheName || "zset".equals(redis.sync().type(key));
    }
}
