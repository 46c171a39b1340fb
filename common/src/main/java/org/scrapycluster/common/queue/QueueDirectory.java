package org.scrapycluster.common.queue;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.scrapycluster.common.keyspace.KeyTemplate;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisKeys;

/**
 * Finds queues by scanning the keyspace ({@code SCAN}, never {@code KEYS}): the
 * fallback that discovers queues written by components that do not maintain
 * {@code <spiderid>:active_domains} (a Python Kafka monitor); and tells the queues among the keys of a caller's own
 * pass (queue statistics). A scan visits the whole keyspace; callers run it every few seconds, not per decision.
 */
public final class QueueDirectory {

    /** The first segments of the cluster's keys that are not a spider's: {@code crawl}, {@code crawls}, {@code info}, … */
    private static final Set<String> OTHER_FIRST_SEGMENTS = Keyspace.ALL.stream().map(KeyTemplate::prefix)
            .filter(prefix -> prefix.indexOf(':') > 0).map(prefix -> prefix.substring(0, prefix.indexOf(':')))
            .collect(Collectors.toUnmodifiableSet());
    /** The middle word of a crawl's dupefilter, {@code <spiderid>:dupefilter:<crawlid>}: its template filled with nothing, less the colons. */
    private static final String DUPEFILTER_WORD = Keyspace.DUPEFILTER.fill("", "").replace(":", "");

    private final RedisConnection redis;

    public QueueDirectory(RedisConnection redis) {
        this.redis = redis;
    }

    /** The domain queues of {@code spiderId}. */
    public List<QueueKey> queues(String spiderId) {
        return queuesAmong(RedisKeys.scan(redis, Keyspace.QUEUE.glob(spiderId)));
    }

    /** The domain queues among {@code keys}, keys that match the queue pattern {@code *:*:queue}, sorted by key. */
    public List<QueueKey> queuesAmong(List<String> keys) {
        return keys.stream().map(QueueKey::tryParse).flatMap(Optional::stream).filter(this::isQueue)
                .sorted(Comparator.comparing(QueueKey::key)).toList();
    }

    /**
     * Whether a name the queue pattern matches is a queue. Other keys end in {@code :queue} too when an id is
     * {@code queue}: the crawl accounting ({@code crawls:<spiderid>:<appid>}, {@code crawl:<spiderid>:<appid>:<crawlid>}),
     * job keys ({@code info:<spiderid>:<appid>}), a crawl's dupefilter ({@code <spiderid>:dupefilter:<crawlid>}),
     * page-limit counters and timeout key; taken for queues, they would fail every hand-out, purge or count that
     * reads them. A name that could be one of them (a domain part with a {@code :} or the dupefilter's word, a first
     * segment of another key) is a queue only if it holds a sorted set (a spider named {@code crawls} has real
     * queues), which {@code TYPE} tells; any other name is taken on its shape alone, without a command or a parse, as
     * a scan may list a million queues.
     */
    private boolean isQueue(QueueKey queue) {
        boolean otherKeyMayHaveTheName = queue.domain().indexOf(':') >= 0 || queue.domain().equals(DUPEFILTER_WORD)
                || OTHER_FIRST_SEGMENTS.contains(queue.spiderId());
        return !otherKeyMayHaveTheName || "zset".equals(redis.sync().type(queue.key()));
    }
}
