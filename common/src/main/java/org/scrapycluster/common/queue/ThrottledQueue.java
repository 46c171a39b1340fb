package org.scrapycluster.common.queue;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import io.lettuce.core.ScriptOutputType;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.LuaScript;
import org.scrapycluster.common.redis.RedisConnection;

/**
 * The throttled hand-out of requests from the domain queues: one Redis Lua call per decision
 * ({@code lua/handout.lua}), so that any number of crawler processes on any number of machines
 * sharing a throttle key together never exceed {@code limit} hand-outs in any sliding window.
 *
 * <p>Each call, on the Redis server clock: counts the hand-outs in
 * {@code <throttlekey>:throttle_window} (trimming entries older than the window); answers
 * {@link HandOut.Wait} when the window is full or, in moderated mode, when the last hand-out
 * ({@code <throttlekey>:throttle_time}) is closer than {@code window / limit}; otherwise
 * takes the highest-priority member, dropping (with crawl accounting) members whose crawl is
 * blacklisted or expired, and hands it out — leased ({@link #handOut}) or deleted ({@link #pop}).
 * While {@code <throttlekey>:throttle_pause} exists with a time to live ({@link #pauseAsync}) it answers
 * {@link HandOut.Wait} until the key expires; one without (written by hand) pauses nothing, and the next pause replaces it.
 * Only a hand-out spends a slot: an empty queue costs nothing (the original spent a slot on an
 * empty pop). The keys and value formats are the original's (docs/compatibility.md §7.3), so Java and
 * Python crawlers sharing a domain share its window.
 *
 * <p>The original also had an "elastic catch-up": once a process had popped {@code limit} items
 * it ignored the moderation spacing whenever the window had room, because its check-then-act
 * throttle lost slots to races and empty pops and fell behind the configured rate. Here the
 * decision and the pop are one atomic step and nothing is wasted, so the configured rate is
 * reached without it; catch-up would only bring back the bursts (several pages within
 * milliseconds, then a pause) that docs/differences.md names as a defect. It is deliberately absent.
 *
 * <p>A limit of 0 answers {@link HandOut.Paused} (the original divided by zero). Moderation needs
 * a limit above 1, as in the original.
 *
 * <p>A decision that fails in Redis (a key of the wrong type, a value Redis cannot use) answers {@link HandOut.Failed}
 * after putting back what it took, rather than failing its call: the decisions made with it in one call stand
 * (docs/architecture.md, "Leases"). Only a call that fails as a whole (Redis unavailable) completes exceptionally.
 */
public final class ThrottledQueue {

    /** How many stopped or expired members one decision drops at most before answering. */
    public static final int MAX_DROPS_PER_DECISION = 100;
    /** The values the script answers per decision. */
    private static final int ANSWER_VALUES = 7;

    private static final LuaScript HAND_OUT = LuaScript.load("handout", LuaScript.KEYSPACE, "clock", "member", "accounting", "batch",
            "errors", "window");
    private static final LuaScript PAUSE = LuaScript.load("pause");
    private static final LuaScript CUT_SHORT = LuaScript.load("cut_short");
    private static final LuaScript HAND_OUT_BEFORE = LuaScript.load("hand_out_before");
    private static final LuaScript COUNT_FROM_FETCH = LuaScript.load("count_from_fetch", "clock", "window");

    private final RedisConnection redis;

    public ThrottledQueue(RedisConnection redis) {
        this.redis = redis;
    }

    /** Makes one hand-out decision in a script call of its own. */
    public CompletableFuture<HandOut> decide(Decision decision) {
        return decideAll(List.of(decision)).thenApply(List::getFirst);
    }

    /**
     * Makes several hand-out decisions in one script call, one after another, each as {@link #decide} would
     * alone; one that fails answers {@link HandOut.Failed} and the others are made all the same.
     *
     * @return the answers, in the order of the decisions
     */
    public CompletableFuture<List<HandOut>> decideAll(List<Decision> decisions) {
        if (decisions.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        String[] keys = new String[decisions.size() * Decision.KEYS];
        String[] args = new String[decisions.size() * Decision.ARGUMENTS];
        for (int i = 0; i < decisions.size(); i++) {
            decisions.get(i).writeTo(keys, i * Decision.KEYS, args, i * Decision.ARGUMENTS);
        }
        return HAND_OUT.<List<Object>>run(redis, ScriptOutputType.MULTI, keys, args).thenApply(reply -> {
            List<HandOut> answers = new ArrayList<>(decisions.size());
            for (int i = 0; i < decisions.size(); i++) {
                answers.add(read(decisions.get(i).queue(), reply.subList(i * ANSWER_VALUES, (i + 1) * ANSWER_VALUES)));
            }
            return answers;
        });
    }

    /**
     * One hand-out decision: the next request of {@code queue} under {@code spec}'s throttle, leased to
     * {@code holder} for {@code leaseMillis}, or removed for good when {@code leaseMillis} is 0.
     */
    public record Decision(QueueKey queue, ThrottleSpec spec, long leaseMillis, String holder) {

        private static final int KEYS = 8;
        private static final int ARGUMENTS = 8;

        /**
         * A leased hand-out.
         *
         * @param holder the node id and a per-node sequence number, unique per hand-out (see {@link LeaseHolder})
         */
        public static Decision lease(QueueKey queue, ThrottleSpec spec, Duration lease, String holder) {
            if (lease.toMillis() < 1) {
                throw new IllegalArgumentException("a lease must last at least a millisecond, got " + lease);
            }
            LeaseHolder.requireValid(holder);
            return new Decision(queue, spec, lease.toMillis(), holder);
        }

        /** A hand-out that removes the request for good. */
        public static Decision pop(QueueKey queue, ThrottleSpec spec) {
            return new Decision(queue, spec, 0, "");
        }

        private void writeTo(String[] keys, int keyAt, String[] args, int argAt) {
            String spider = queue.spiderId();
            keys[keyAt] = queue.key();
            keys[keyAt + 1] = spec.windowKey();
            keys[keyAt + 2] = spec.timeKey();
            keys[keyAt + 3] = Keyspace.blacklist(spider);
            keys[keyAt + 4] = Keyspace.activeDomains(spider);
            keys[keyAt + 5] = Keyspace.leased(spider);
            keys[keyAt + 6] = Keyspace.leases(spider);
            keys[keyAt + 7] = spec.pauseKey();
            args[argAt] = Double.toString(spec.windowSeconds());
            args[argAt + 1] = Integer.toString(spec.limit());
            args[argAt + 2] = spec.moderated() ? "1" : "0";
            args[argAt + 3] = Long.toString(leaseMillis);
            args[argAt + 4] = holder;
            args[argAt + 5] = spider;
            args[argAt + 6] = queue.domain();
            args[argAt + 7] = Integer.toString(MAX_DROPS_PER_DECISION);
        }
    }

    /**
     * Decides and, when allowed, leases the next request of {@code queue} to {@code holder} for
     * {@code lease}, waiting for the answer: the member moves to {@code <spiderid>:leased} until it is
     * acknowledged ({@link Leases#ack}) or the lease expires and the reaper returns it to its queue.
     *
     * @param holder the node id and a per-node sequence number, unique per hand-out (see {@link LeaseHolder})
     */
    public HandOut handOut(QueueKey queue, ThrottleSpec spec, Duration lease, String holder) {
        return redis.await(decide(Decision.lease(queue, spec, lease, holder)));
    }

    /**
     * Cuts short the leases that hand-outs whose answers never came back may have made: a call that timed out or lost
     * its connection may have run in Redis all the same, leasing requests that no node works on. Each such lease is
     * made due at once, so the next reap returns its request to its queue instead of when the lease would have ended.
     * Call it once Redis answers again, on the connection the lost calls went out on: Redis has run them, or never
     * will, by the time it runs this.
     *
     * @param spiderId the spider of the hand-outs
     * @param node     the holders' node
     * @param holders  the holders of the hand-outs whose answers were lost (each names one hand-out, never dispatched)
     * @return how many leases were cut short
     */
    public CompletableFuture<Long> cutShortUnanswered(String spiderId, LeaseHolder node, List<String> holders) {
        if (holders.isEmpty()) {
            return CompletableFuture.completedFuture(0L);
        }
        String[] args = new String[1 + holders.size()];
        args[0] = node.leaseIdGlob();
        for (int i = 0; i < holders.size(); i++) {
            args[i + 1] = holders.get(i);
        }
        return CUT_SHORT.run(redis, ScriptOutputType.INTEGER, new String[] {Keyspace.leases(spiderId)}, args);
    }

    /**
     * Decides and, when allowed, removes the next request of {@code queue} for good, waiting for the answer:
     * the original's {@code ThrottledQueue.pop()}, without a lease (a request is lost if its taker dies).
     */
    public HandOut pop(QueueKey queue, ThrottleSpec spec) {
        return redis.await(decide(Decision.pop(queue, spec)));
    }

    /** The number of requests queued (not leased) for the domain. */
    public long size(QueueKey queue) {
        return redis.sync().zcard(queue.key());
    }

    /** Deletes the queue and its throttle keys (the original's {@code clear()}). */
    public void clear(QueueKey queue, ThrottleSpec spec) {
        redis.sync().del(queue.key(), spec.windowKey(), spec.timeKey(), spec.pauseKey());
        redis.sync().hdel(Keyspace.queueLengths(queue.spiderId()), queue.domain());
    }

    /**
     * Pauses every hand-out under {@code spec}'s throttle key, for every node sharing it, for
     * {@code pause} ({@code <throttlekey>:throttle_pause}, Redis server clock). A pause only lengthens: one shorter
     * than the pause in force leaves it as it is, so the answer to a request sent before a long pause began cannot
     * end that pause early. Hand-outs answer {@link HandOut.Wait} until the pause ends.
     *
     * @return whether the pause was set or lengthened
     */
    public CompletableFuture<Boolean> pauseAsync(ThrottleSpec spec, Duration pause) {
        long millis = Math.max(1, pause.toMillis());
        return PAUSE.<Long>run(redis, ScriptOutputType.INTEGER, new String[] {spec.pauseKey()}, Long.toString(millis))
                .thenApply(set -> set == 1L);
    }

    /**
     * The latest hand-out under {@code spec}'s throttle key before the one made at {@code handedOut}, a microsecond or
     * more before it, as its window ({@code <throttlekey>:throttle_window}) holds it; empty when the window holds none
     * (or no longer: the window keeps what is within it, and the key lives two windows). The window is then kept at
     * least {@code keep} from now, so that the hand-out at {@code handedOut}, made under a spec that did not yet know
     * the delay {@code keep} covers, is there for the next node's first request to be checked against.
     */
    public CompletableFuture<Optional<Instant>> handOutBefore(ThrottleSpec spec, Instant handedOut, Duration keep) {
        BigDecimal before = serverTime(handedOut).subtract(BigDecimal.valueOf(1, 6));
        return HAND_OUT_BEFORE.<String>run(redis, ScriptOutputType.VALUE, new String[] {spec.windowKey()}, before.toPlainString(),
                Long.toString(Math.max(1, keep.toMillis()))).thenApply(newest -> Optional.ofNullable(newest).map(ThrottledQueue::instant));
    }

    /**
     * Counts the hand-out made at {@code handedOut} under {@code spec} from now, when its request goes out after waiting
     * for its host's robots.txt, instead of from the hand-out: the requests of a domain's first hand-outs would otherwise
     * reach the server next to the next window's (docs/throttling.md, "Where the limit comes from").
     *
     * @return true when the request may go now; false when the window, counted so, holds more than its limit (hand-outs
     *         made meanwhile went out at once): its entry is then removed, and the request is to be put back
     */
    public CompletableFuture<Boolean> countFromFetch(ThrottleSpec spec, Instant handedOut) {
        return COUNT_FROM_FETCH.<Long>run(redis, ScriptOutputType.INTEGER, new String[] {spec.windowKey()},
                serverTime(handedOut).toPlainString(), Double.toString(spec.windowSeconds()), Integer.toString(spec.limit()))
                .thenApply(counted -> counted == 1L);
    }

    /** {@code at} as the Redis server's time text writes it, {@code "<seconds>.<microseconds>"}. */
    private static BigDecimal serverTime(Instant at) {
        return BigDecimal.valueOf(at.getEpochSecond()).add(BigDecimal.valueOf(at.getNano() / 1_000, 6));
    }

    private static HandOut read(QueueKey queue, List<Object> reply) {
        String outcome = (String) reply.get(0);
        int dropped = ((Long) reply.get(1)).intValue();
        return switch (outcome) {
            case "HANDED_OUT" -> {
                String leaseId = (String) reply.get(5);
                yield new HandOut.HandedOut(queue, (String) reply.get(3), Double.parseDouble((String) reply.get(4)),
                        leaseId.isEmpty() ? Optional.empty() : Optional.of(leaseId), instant((String) reply.get(6)), dropped);
            }
            case "WAIT" -> new HandOut.Wait(Duration.ofMillis((Long) reply.get(2)), dropped);
            case "EMPTY" -> new HandOut.Empty(dropped);
            case "PAUSED" -> new HandOut.Paused();
            case "FAILED" -> new HandOut.Failed((String) reply.get(3), dropped);
            default -> throw new IllegalStateException("unexpected hand-out answer " + reply);
        };
    }

    /** {@code "<seconds>.<microseconds>"} as an instant, exactly. */
    private static Instant instant(String serverTime) {
        return instant(new BigDecimal(serverTime));
    }

    private static Instant instant(BigDecimal seconds) {
        long whole = seconds.longValue();
        return Instant.ofEpochSecond(whole, seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).longValue());
    }
}
