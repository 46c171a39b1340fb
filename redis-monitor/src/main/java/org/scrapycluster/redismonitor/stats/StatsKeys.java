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
import org.scrapycluster.common.redis.RecentPass;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisKeys;
import org.scrapycluster.common.stats.StatsReader;

/**
 * The keys that stats answers and dumps read (docs/compatibility.md §3.8), none of them indexed: the statistics keys in
 * both their forms and the domain queues, all from one pass over the keyspace ({@link RedisKeys#matchEach}), which is
 * reused for 39 times the shortest of the last three passes' durations ({@link RecentPass} with no period of its own;
 * docs/operations.md "Scans of the keyspace"). On a small keyspace a pass takes milliseconds and every answer is as
 * good as fresh; on a million keys it takes about a second, and a client asking for {@code stats all} every few seconds
 * no longer gives Redis's thread a pass for each section of each answer, only a fortieth of its time. The values are
 * read at each answer: only a key created or expired since the last pass (a new queue, a node's heartbeat) shows as it
 * was, until the next. Thread-safe.
 */
final class StatsKeys {

    /** The globs of one pass: statistics at their names, in their buckets, and the domain queues. */
    private static final List<Glob> GLOBS = Stream.concat(StatsReader.patterns(Keyspace.SERVICE_STATS.glob()).stream(),
            Stream.of(Keyspace.QUEUE.glob())).map(Glob::compile).toList();

    /** What one pass found: statistics keys at their names and in their buckets, and the queues among its keys. */
    private record Found(List<String> atNames, List<String> buckets, List<QueueKey> queues) {
    }

    private final RedisConnection redis;
    private final QueueDirectory directory;
    private final RecentPass<Found> recent;

    StatsKeys(RedisConnection redis, InstantSource clock) {
        this.redis = redis;
        this.directory = new QueueDirectory(redis);
        this.recent = new RecentPass<>(Duration.ZERO, clock, new Found(List.of(), List.of(), List.of()));
    }

    /**
     * The original names of the statistics keys matching the glob {@code pattern} ({@code stats:crawler:*}), each once,
     * in either form ({@link StatsReader#names}), as the last recent pass found them.
     */
    SortedSet<String> statsNames(String pattern) {
        Found found = recent.get(this::pass);
        return StatsReader.names(matching(found.atNames(), Glob.compile(pattern)),
                matching(found.buckets(), Glob.compile(Keyspace.STATS_BUCKETS.globOf(pattern))));
    }

    /** The domain queues of every spider, as the last recent pass found them. */
    List<QueueKey> queues() {
        return recent.get(this::pass).queues();
    }

    private Found pass() {
        List<List<String>> keys = RedisKeys.matchEach(redis, GLOBS);
        return new Found(keys.get(0), keys.get(1), directory.queuesAmong(keys.get(2)));
    }

    private static List<String> matching(List<String> keys, Glob glob) {
        return keys.stream().filter(glob::matches).toList();
    }
}
