package org.scrapycluster.redismonitor.stats;

import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.SortedSet;
import java.util.stream.Stream;

import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.QueueDirectory;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.common.redis.Glob;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisKeys;
import org.scrapycluster.common.redis.ScanPace;
import org.scrapycluster.common.stats.StatsReader;

/**
 * The keys that stats answers and dumps read (docs/compatibility.md §3.8), none of them indexed: the statistics keys in
 * both their forms and the domain queues, all from one pass over the keyspace ({@link RedisKeys#matchEach}), which is
 * reused for 39 times its own duration ({@link ScanPace} with no period of its own; docs/operations.md "Scans of the
 * keyspace"). On a small keyspace a pass takes milliseconds and every answer is as good as fresh; on a million keys it
 * takes about a second, and a client asking for {@code stats all} every few seconds no longer gives Redis's thread a
 * pass for each section of each answer, only a fortieth of its time. The values are read at each answer: only a key
 * created or expired since the last pass (a new queue, a node's heartbeat) shows as it was, until the next.
 */
final class StatsKeys {

    /** The globs of one pass: statistics at their names, in their buckets, and the domain queues. */
    private static final List<Glob> GLOBS = Stream.concat(StatsReader.patterns(Keyspace.SERVICE_STATS.glob()).stream(),
            Stream.of(Keyspace.QUEUE.glob())).map(Glob::compile).toList();

    private final RedisConnection redis;
    private final QueueDirectory directory;
    private final ScanPace pace;
    private List<List<String>> found = List.of(List.of(), List.of(), List.of());

    StatsKeys(RedisConnection redis, InstantSource clock) {
        this.redis = redis;
        this.directory = new QueueDirectory(redis);
        this.pace = new ScanPace(Duration.ZERO, clock);
    }

    /**
     * The original names of the statistics keys matching the glob {@code pattern} ({@code stats:crawler:*}), each once,
     * in either form ({@link StatsReader#names}), as the last recent pass found them.
     */
    synchronized SortedSet<String> statsNames(String pattern) {
        List<List<String>> keys = recent();
        return StatsReader.names(matching(keys.get(0), Glob.compile(pattern)),
                matching(keys.get(1), Glob.compile(Keyspace.STATS_BUCKETS.globOf(pattern))));
    }

    /** The domain queues of every spider, as the last recent pass found them. */
    synchronized List<QueueKey> queues() {
        return directory.queuesAmong(recent().get(2));
    }

    private List<List<String>> recent() {
        pace.ifDue(() -> RedisKeys.matchEach(redis, GLOBS)).ifPresent(keys -> found = keys);
        return found;
    }

    private static List<String> matching(List<String> keys, Glob glob) {
        return keys.stream().filter(glob::matches).toList();
    }
}
