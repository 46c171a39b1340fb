package org.scrapycluster.common.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The answer of one throttled hand-out decision ({@link ThrottledQueue}). Every answer says how
 * many members were dropped on the way (their crawl is blacklisted or expired).
 */
public sealed interface HandOut {

    /** Members removed because their crawl is stopped or expired, with their accounting. */
    int dropped();

    /**
     * A request was handed out and a throttle slot spent.
     *
     * @param queue   the queue it came from
     * @param member  the member exactly as it was queued
     * @param score   its queue score (−priority), with which it returns if the lease expires
     * @param leaseId its lease id {@code <domain>|<score>|<holder>}; empty for a plain pop
     * @param at      the Redis server time of the hand-out, to the microsecond (the window entry)
     * @param dropped members dropped before it
     */
    record HandedOut(QueueKey queue, String member, double score, Optional<String> leaseId, Instant at, int dropped)
            implements HandOut {
    }

    /**
     * The throttle allows nothing now. A delay of zero means the call stopped after dropping its
     * bound of stopped or expired members and should be repeated at once.
     *
     * @param delay   until the next slot can free (from the oldest window entry or the moderation spacing)
     * @param dropped members dropped
     */
    record Wait(Duration delay, int dropped) implements HandOut {
    }

    /**
     * The queue is empty (perhaps after the drops); the domain has left {@code active_domains}.
     *
     * @param dropped members dropped
     */
    record Empty(int dropped) implements HandOut {
    }

    /**
     * A command of the decision failed in Redis: a key of its queue, throttle or spider has the wrong type, or
     * holds a value Redis cannot use (a corrupted or hand-edited keyspace). What the decision had taken went back
     * (the request to its queue, its lease and window entry removed), and the other decisions of its call stand.
     * Asking again fails the same way until the key is repaired.
     *
     * @param reason  Redis's error
     * @param dropped members dropped before the failure (they are gone, as in any other answer)
     */
    record Failed(String reason, int dropped) implements HandOut {
    }

    /** The domain's limit is 0: nothing is handed out until it changes. */
    record Paused() implements HandOut {
        @Override
        public int dropped() {
            return 0;
        }
    }
}
