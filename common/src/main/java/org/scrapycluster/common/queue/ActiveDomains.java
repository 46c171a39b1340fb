package org.scrapycluster.common.queue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * How a crawler node learns which domains got work (docs/architecture.md "Readiness and
 * discovery"): {@code <spiderid>:active_domains} scores each domain by the spider's activation
 * marker when its queue last went from empty to non-empty, so reading what changed since the last
 * look costs O(log n + new) whatever the number of domains. The writers' marker only grows (the
 * Redis clock's epoch milliseconds, or one more than the last marker), so a domain that leaves and
 * comes back is always scored above every score a look has read.
 *
 * <p>The bound is inclusive, because domains scored before the marker existed may share a
 * millisecond; the {@link Cursor} remembers the domains already seen at its score so that they are
 * not reported twice.
 */
public final class ActiveDomains {

    private static final LuaScript ACTIVATE = LuaScript.load("activate", LuaScript.KEYSPACE, "clock", "member", "batch");
    /** Domains put in by one script call at most, so that no call holds Redis long. */
    private static final int ACTIVATED_A_CALL = 1000;

    private final RedisConnection redis;

    public ActiveDomains(RedisConnection redis) {
        this.redis = redis;
    }

    /**
     * Where the last look ended.
     *
     * @param score      the highest score seen
     * @param seenAtScore the domains seen with exactly that score
     */
    public record Cursor(double score, Set<String> seenAtScore) {

        /** Before everything: the first look returns every active domain. */
        public static final Cursor START = new Cursor(Double.NEGATIVE_INFINITY, Set.of());

        public Cursor {
            Objects.requireNonNull(seenAtScore, "seenAtScore");
            seenAtScore = Set.copyOf(seenAtScore);
        }
    }

    /**
     * Domains that became active since {@code cursor}.
     *
     * @param domains in the order they became active
     * @param next    the cursor for the next look
     */
    public record Changes(List<String> domains, Cursor next) {
    }

    /**
     * Puts in the index those of {@code domains} whose queue has requests and which are not there, as an enqueue
     * does: queues written by a component that keeps no index (a Python Kafka monitor), found by a keyspace scan.
     *
     * @return how many were put in
     */
    public long activate(String spiderId, List<String> domains) {
        long added = 0;
        for (int from = 0; from < domains.size(); from += ACTIVATED_A_CALL) {
            String[] args = Stream.concat(Stream.of(spiderId), domains.subList(from, Math.min(domains.size(), from + ACTIVATED_A_CALL))
                    .stream()).toArray(String[]::new);
            added += ACTIVATE.<Long>call(redis, ScriptOutputType.INTEGER, new String[] {Keyspace.activeDomains(spiderId)}, args);
        }
        return added;
    }

    /** At most {@code limit} domains of {@code spiderId} that became active since {@code cursor}. */
    public Changes changedSince(String spiderId, Cursor cursor, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        List<ScoredValue<String>> page = redis.sync().zrangebyscoreWithScores(Keyspace.activeDomains(spiderId),
                Range.from(Range.Boundary.including(cursor.score()), Range.Boundary.unbounded()),
                Limit.create(0, (long) limit + cursor.seenAtScore().size()));
        List<String> domains = new ArrayList<>();
        double score = cursor.score();
        Set<String> seen = new HashSet<>(cursor.seenAtScore());
        for (ScoredValue<String> entry : page) {
            if (entry.getScore() == cursor.score() && cursor.seenAtScore().contains(entry.getValue())) {
                continue;
            }
            if (domains.size() == limit) {
                break;
            }
            if (entry.getScore() != score) {
                score = entry.getScore();
                seen.clear();
            }
            seen.add(entry.getValue());
            domains.add(entry.getValue());
        }
        return new Changes(domains, new Cursor(score, seen));
    }
}
