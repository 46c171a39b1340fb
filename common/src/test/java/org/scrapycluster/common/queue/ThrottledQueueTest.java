package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletionException;

import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisErrors;
import org.scrapycluster.common.redis.TestRedis;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;

@ExtendWith(TestRedis.class)
class ThrottledQueueTest {

    private static final Duration LEASE = Duration.ofMinutes(5);

    private final RedisConnection redis;
    private final ThrottledQueue throttle;
    private final Enqueuer enqueuer;
    private final CrawlCounts counts;
    private final LeaseHolder holder = new LeaseHolder("node1");
    private final String spider = TestRedis.unique("thr");
    private final QueueKey queue = new QueueKey(spider, "ex1.com");
    private final List<String> corrupted = new ArrayList<>();

    ThrottledQueueTest(RedisConnection redis) {
        this.redis = redis;
        throttle = new ThrottledQueue(redis);
        enqueuer = new Enqueuer(redis, false);
        counts = new CrawlCounts(redis);
    }

    private ThrottleSpec spec(double window, int limit, boolean moderated) {
        return new ThrottleSpec(spider + ":ex1.com", window, limit, moderated);
    }

    private void enqueue(String member) {
        assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(EnqueueRequest.of(queue, member)));
    }

    private void enqueueMany(int count, String crawlid, int priority) {
        for (int i = 0; i < count; i++) {
            enqueue(Members.feedItem("https://ex1.com/" + crawlid + "/" + i, "app", crawlid, priority, 0));
        }
    }

    /** Makes {@code key} a string, as a hand edit might; removed after the test, for the tests sharing the server. */
    private void corrupt(String key) {
        redis.sync().del(key);
        redis.sync().set(key, "corrupted");
        corrupted.add(key);
    }

    @AfterEach
    void removeCorruptedKeys() {
        corrupted.forEach(key -> redis.sync().del(key));
    }

    private HandOut handOut(ThrottleSpec spec) {
        return throttle.handOut(queue, spec, LEASE, holder.next());
    }

    @Test
    void decisionsInOneCallAreMadeOneAfterAnother() {
        ThrottleSpec spec = spec(60, 2, false);
        enqueueMany(3, "c1", 1);
        QueueKey empty = new QueueKey(spider, "ex2.com");
        ThrottleSpec paused = new ThrottleSpec(spider + ":ex2.com", 60, 0, false);
        List<HandOut> answers = throttle.decideAll(List.of(
                ThrottledQueue.Decision.lease(queue, spec, LEASE, holder.next()),
                ThrottledQueue.Decision.lease(empty, paused, LEASE, holder.next()),
                ThrottledQueue.Decision.pop(queue, spec),
                ThrottledQueue.Decision.lease(queue, spec, LEASE, holder.next()))).join();
        assertEquals(4, answers.size());
        HandOut.HandedOut leased = assertInstanceOf(HandOut.HandedOut.class, answers.get(0));
        assertTrue(leased.leaseId().isPresent());
        assertEquals(new HandOut.Empty(0), answers.get(1), "a paused domain with nothing queued leaves the active domains");
        HandOut.HandedOut popped = assertInstanceOf(HandOut.HandedOut.class, answers.get(2));
        assertTrue(popped.leaseId().isEmpty());
        assertEquals(leased.at(), popped.at(), "one call reads the clock once");
        assertInstanceOf(HandOut.Wait.class, answers.get(3), "the two hand-outs before it spent the limit");
        assertEquals(1, throttle.size(queue));
        assertEquals(List.of(), throttle.decideAll(List.of()).join());
    }

    @Test
    void aDecisionFailingInRedisFailsOnlyItselfAndTheDecisionsAroundItHandOut() {
        ThrottleSpec spec = spec(60, 10, false);
        enqueueMany(2, "c1", 1);
        QueueKey broken = new QueueKey(spider, "ex2.com");
        corrupt(broken.key());
        List<HandOut> answers = throttle.decideAll(List.of(
                ThrottledQueue.Decision.lease(queue, spec, LEASE, holder.next()),
                ThrottledQueue.Decision.lease(broken, new ThrottleSpec(spider + ":ex2.com", 60, 10, false), LEASE, holder.next()),
                ThrottledQueue.Decision.lease(queue, spec, LEASE, holder.next()))).join();
        assertInstanceOf(HandOut.HandedOut.class, answers.get(0), "what an earlier decision leased reaches its caller");
        HandOut.Failed failed = assertInstanceOf(HandOut.Failed.class, answers.get(1));
        assertTrue(failed.reason().startsWith("WRONGTYPE"), failed.reason());
        assertInstanceOf(HandOut.HandedOut.class, answers.get(2), "a decision after the failed one is made");
        assertEquals(2, redis.sync().hlen(Keyspace.leased(spider)));
    }

    @Test
    void aRedisThatTakesNoWritesFailsTheWholeCallAsAnOutageNotEachDomainsDecision() {
        try (EmbeddedRedis replica = EmbeddedRedis.start(0, DataDirectory.temporary("handout-replica"));
             RedisConnection readOnly = TestRedis.connect(replica)) {
            readOnly.sync().replicaof("127.0.0.1", 1); // a master that is not there: it stays a replica, taking no writes
            ThrottledQueue refusing = new ThrottledQueue(readOnly);
            CompletionException failed = assertThrows(CompletionException.class, () -> refusing.decideAll(List.of(
                    ThrottledQueue.Decision.lease(queue, spec(60, 10, false), LEASE, holder.next()),
                    ThrottledQueue.Decision.lease(new QueueKey(spider, "ex2.com"), spec(60, 10, false), LEASE, holder.next()))).join());
            assertTrue(failed.getCause().getMessage().startsWith("READONLY"), failed.getCause().getMessage());
            assertFalse(RedisErrors.isRefusal(failed.getCause()), "an outage to wait out, not one domain's broken keys");
        }
    }

    @Test
    void anEmptyQueueSpendsNoSlot() {
        ThrottleSpec spec = spec(60, 10, false);
        assertEquals(new HandOut.Empty(0), handOut(spec));
        assertEquals(0, redis.sync().exists(spec.windowKey()));
        enqueueMany(2, "c1", 1);
        assertInstanceOf(HandOut.HandedOut.class, handOut(spec));
        assertInstanceOf(HandOut.HandedOut.class, handOut(spec));
        assertEquals(new HandOut.Empty(0), handOut(spec));
        assertEquals(new HandOut.Empty(0), handOut(spec));
        assertEquals(2, redis.sync().zcard(spec.windowKey()), "only the two hand-outs spent slots");
    }

    @Test
    void theHandOutBeforeOneIsTheWindowsNewestEntryBeforeIt() {
        ThrottleSpec spec = spec(60, 10, false);
        enqueueMany(3, "c1", 1);
        HandOut.HandedOut first = assertInstanceOf(HandOut.HandedOut.class, handOut(spec));
        HandOut.HandedOut second = assertInstanceOf(HandOut.HandedOut.class, handOut(spec));
        HandOut.HandedOut third = assertInstanceOf(HandOut.HandedOut.class, handOut(spec));

        assertEquals(Optional.empty(), throttle.handOutBefore(spec, first.at(), Duration.ZERO).join(), "the domain's first hand-out");
        assertWithinAMicrosecond(first.at(), throttle.handOutBefore(spec, second.at(), Duration.ZERO).join().orElseThrow());
        assertWithinAMicrosecond(second.at(), throttle.handOutBefore(spec, third.at(), Duration.ZERO).join().orElseThrow());
        ThrottleSpec another = new ThrottleSpec(spider + ":ex2.com", 60, 10, false);
        assertEquals(Optional.empty(), throttle.handOutBefore(another, third.at(), Duration.ZERO).join(),
                "another throttle key's window");
    }

    /**
     * A node's first request of a domain is handed out under a spec that does not know the domain's Crawl-delay yet: a
     * window of 1 s keeps its entry 2 s. Read with the delay, the window is kept two delays, so that another node's first
     * request of the domain, handed out 5 s on, still finds this one before it; a longer time to live is left as it is.
     */
    @Test
    void readingTheHandOutBeforeKeepsTheWindowForTheDelay() {
        ThrottleSpec spec = spec(1, 10, false);
        enqueueMany(1, "c1", 1);
        HandOut.HandedOut first = assertInstanceOf(HandOut.HandedOut.class, handOut(spec));
        assertTrue(redis.sync().pttl(spec.windowKey()) <= 2_000, "kept two of the spec's windows");

        assertEquals(Optional.empty(), throttle.handOutBefore(spec, first.at(), Duration.ofSeconds(30)).join());
        long kept = redis.sync().pttl(spec.windowKey());
        assertTrue(kept > 29_000 && kept <= 30_000, "kept for the delay asked: " + kept);
        throttle.handOutBefore(spec, first.at(), Duration.ofSeconds(3)).join();
        assertTrue(redis.sync().pttl(spec.windowKey()) > 29_000, "never shortened");
    }

    /**
     * A request that waited for its host's robots.txt is counted in the window from its fetch: the domain's next hand-out
     * waits a window from then, not from its hand-out.
     */
    @Test
    void aHandOutCountedFromItsFetchHoldsTheNextBackAWindowFromThen() {
        ThrottleSpec spec = spec(60, 2, false);
        enqueueMany(3, "c1", 1);
        HandOut.HandedOut waited = assertInstanceOf(HandOut.HandedOut.class, handOut(spec));
        HandOut.HandedOut next = assertInstanceOf(HandOut.HandedOut.class, handOut(spec));

        assertTrue(throttle.countFromFetch(spec, waited.at()).join(), "within the limit, it goes");
        List<ScoredValue<String>> entries = redis.sync().zrangeWithScores(spec.windowKey(), 0, -1);
        assertEquals(2, entries.size(), "moved, not added: " + entries);
        assertEquals(seconds(next.at()), entries.getFirst().getScore(), "the later hand-out is now the window's oldest");
        assertTrue(entries.getLast().getScore() > seconds(next.at()), "counted from now, after the later hand-out: " + entries);
    }

    /**
     * Counted from its fetch, a request that waited while its window freed and filled again would be one more than the
     * limit: its entry is taken out, and it is to be put back.
     */
    @Test
    void aHandOutCountedFromItsFetchIsTakenOutWhenThatPutsTheWindowOverItsLimit() {
        ThrottleSpec spec = spec(1, 1, false);
        enqueueMany(2, "c1", 1);
        assertInstanceOf(HandOut.HandedOut.class, handOut(spec));
        String entry = redis.sync().zrange(spec.windowKey(), 0, -1).getFirst();
        List<String> time = redis.sync().time();
        Instant longAgo = Instant.ofEpochSecond(Long.parseLong(time.get(0)) - 2, Long.parseLong(time.get(1)) * 1_000);
        redis.sync().zadd(spec.windowKey(), seconds(longAgo), entry); // handed out 2 s ago, and waiting since
        assertInstanceOf(HandOut.HandedOut.class, handOut(spec), "the window freed, the next went out at once");

        assertFalse(throttle.countFromFetch(spec, longAgo).join());
        assertEquals(1, redis.sync().zcount(spec.windowKey(), Range.create(seconds(longAgo) + 1, Double.MAX_VALUE)),
                "the window counts the one that went out only");
    }

    /** An instant as a window entry's score: its {@code "<s>.<us>"} text, as Redis parses it. */
    private static double seconds(Instant at) {
        return Double.parseDouble(at.getEpochSecond() + "." + String.format(Locale.ROOT, "%06d", at.getNano() / 1_000));
    }

    private static void assertWithinAMicrosecond(Instant expected, Instant actual) {
        assertTrue(Duration.between(expected, actual).abs().toNanos() < 1_000, expected + " against " + actual);
    }

    @Test
    void anEmptyQueueLeavesTheActiveDomains() {
        enqueueMany(1, "c1", 1);
        assertEquals(List.of("ex1.com"), redis.sync().zrange(Keyspace.activeDomains(spider), 0, -1));
        handOut(spec(60, 10, false));
        assertEquals(List.of("ex1.com"), redis.sync().zrange(Keyspace.activeDomains(spider), 0, -1),
                "it leaves only when a call finds the queue empty");
        handOut(spec(60, 10, false));
        assertEquals(List.of(), redis.sync().zrange(Keyspace.activeDomains(spider), 0, -1));
    }

    @Test
    void anEmptyQueueBehindAFullWindowWaitsAndIsFoundEmptyOnceASlotFrees() {
        ThrottleSpec spec = spec(1, 1, false);
        enqueueMany(1, "c1", 1);
        assertInstanceOf(HandOut.HandedOut.class, handOut(spec));
        assertInstanceOf(HandOut.Wait.class, handOut(spec), "the throttle is asked before the queue");
        assertEquals(List.of("ex1.com"), redis.sync().zrange(Keyspace.activeDomains(spider), 0, -1));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> handOut(spec) instanceof HandOut.Empty);
        assertEquals(List.of(), redis.sync().zrange(Keyspace.activeDomains(spider), 0, -1));
    }

    @Test
    void aStoppedCrawlIsDroppedInEveryDecisionOfACallAndOnlyIt() {
        QueueKey other = new QueueKey(spider, "ex2.com");
        ThrottleSpec open = spec(60, 100, false);
        ThrottleSpec otherOpen = new ThrottleSpec(spider + ":ex2.com", 60, 100, false);
        for (QueueKey each : List.of(queue, other)) {
            for (int i = 0; i < 2; i++) {
                assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(EnqueueRequest.of(each,
                        Members.feedItem("https://" + each.domain() + "/stopped/" + i, "app", "stopped", 9, 0))));
                assertEquals(EnqueueOutcome.QUEUED, enqueuer.enqueue(EnqueueRequest.of(each,
                        Members.feedItem("https://" + each.domain() + "/live/" + i, "app", "live", 1, 0))));
            }
        }
        redis.sync().sadd(Keyspace.blacklist(spider), "app||stopped");
        List<HandOut> answers = throttle.decideAll(List.of(
                ThrottledQueue.Decision.lease(queue, open, LEASE, holder.next()),
                ThrottledQueue.Decision.lease(other, otherOpen, LEASE, holder.next()),
                ThrottledQueue.Decision.lease(queue, open, LEASE, holder.next()))).join();
        List<String> members = new ArrayList<>();
        List<Integer> dropped = new ArrayList<>();
        for (HandOut answer : answers) {
            members.add(assertInstanceOf(HandOut.HandedOut.class, answer).member());
            dropped.add(answer.dropped());
        }
        assertEquals(List.of(2, 2, 0), dropped);
        assertTrue(members.stream().allMatch(member -> member.contains("/live/")), members.toString());
        assertEquals(0, counts.crawl(new CrawlRef(spider, "app", "stopped")).orElseThrow().pending());
        assertEquals(0, throttle.size(queue));
        assertEquals(1, throttle.size(other));
    }

    @Test
    void scaleHalvesTheAllowance() {
        ThrottleSpec spec = ThrottleSpec.of(spider + ":ex1.com", 60, 10, 0.5, false);
        enqueueMany(20, "c1", 1);
        int handedOut = 0;
        HandOut answer;
        while ((answer = handOut(spec)) instanceof HandOut.HandedOut) {
            handedOut++;
        }
        assertEquals(5, handedOut);
        HandOut.Wait wait = assertInstanceOf(HandOut.Wait.class, answer);
        assertTrue(wait.delay().compareTo(Duration.ofSeconds(55)) > 0 && wait.delay().compareTo(Duration.ofSeconds(60)) <= 0,
                "the first slot frees about 60 s after the first hand-out: " + wait.delay());
        assertEquals(15, throttle.size(queue));
    }

    @Test
    void limitZeroPausesTheDomain() {
        enqueueMany(3, "c1", 1);
        assertEquals(new HandOut.Paused(), handOut(ThrottleSpec.of(spider + ":ex1.com", 60, 10, 0.0, true)));
        assertEquals(3, throttle.size(queue));
    }

    @Test
    void aPauseHoldsTheDomainAndOnlyEverLengthens() throws Exception {
        ThrottleSpec spec = spec(60, 10, false);
        enqueueMany(2, "c1", 1);

        assertTrue(throttle.pauseAsync(spec, Duration.ofSeconds(600)).get());
        assertInstanceOf(HandOut.Wait.class, handOut(spec), "nothing is handed out while the domain is paused");
        assertFalse(throttle.pauseAsync(spec, Duration.ofSeconds(10)).get(), "a shorter pause leaves the longer one");
        assertTrue(redis.sync().pttl(spec.pauseKey()) > 590_000, "the 600 s pause is still in force");

        assertTrue(throttle.pauseAsync(spec, Duration.ofSeconds(900)).get(), "a longer pause lengthens it");
        assertTrue(redis.sync().pttl(spec.pauseKey()) > 890_000);

        redis.sync().del(spec.pauseKey());
        assertInstanceOf(HandOut.HandedOut.class, handOut(spec), "the pause over, hand-outs go on");
    }

    @Test
    void aPauseKeyWithoutATimeToLivePausesNothingAndTheNextPauseReplacesIt() throws Exception {
        ThrottleSpec spec = spec(60, 10, false);
        enqueueMany(2, "c1", 1);
        redis.sync().set(spec.pauseKey(), "1");

        assertInstanceOf(HandOut.HandedOut.class, handOut(spec), "a key that never expires is no pause");
        assertTrue(throttle.pauseAsync(spec, Duration.ofSeconds(30)).get(), "a pause replaces it");
        assertTrue(redis.sync().pttl(spec.pauseKey()) > 29_000);
        assertInstanceOf(HandOut.Wait.class, handOut(spec), "and holds the domain");
    }

    @Test
    void moderationSpacesHandOutsByWindowOverHits() throws InterruptedException {
        ThrottleSpec spec = spec(2.0, 5, true);
        enqueueMany(40, "c1", 1);
        List<Instant> times = new ArrayList<>(ThrottleHammer.hammer(redis, queue, spec, 3, Duration.ofSeconds(3)));
        times.sort(null);
        assertTrue(times.size() >= 4, "hand-outs: " + times.size());
        for (int i = 1; i < times.size(); i++) {
            long gap = ThrottleHammer.micros(times.get(i)) - ThrottleHammer.micros(times.get(i - 1));
            assertTrue(gap >= 400_000 - 1, "hand-outs " + gap + " µs apart, spacing 400 ms");
        }
    }

    /**
     * A domain moderated only since its last hand-outs (a Crawl-delay read after them, a limit raised above one) is spaced
     * from the last of them: unmoderated hand-outs write no time key, and the window holds their times.
     */
    @Test
    void aDomainModeratedSinceItsLastHandOutsIsSpacedFromTheLastOfThem() {
        enqueueMany(3, "c1", 1);
        assertInstanceOf(HandOut.HandedOut.class, handOut(spec(60, 10, false)));
        assertInstanceOf(HandOut.HandedOut.class, handOut(spec(60, 10, false)));
        assertEquals(0, redis.sync().exists(spec(60, 10, true).timeKey()), "an unmoderated hand-out writes no time key");
        HandOut.Wait wait = assertInstanceOf(HandOut.Wait.class, handOut(spec(60, 3, true)));
        assertTrue(wait.delay().toMillis() > 19_000 && wait.delay().toMillis() <= 20_000, wait.delay().toString());
    }

    /**
     * ... and so is one whose time key, written by a moderated hand-out before the unmoderated ones (a limit lowered to
     * one, then raised again live), names an older time.
     */
    @Test
    void aDomainModeratedAgainIsSpacedFromItsLastHandOutNotFromAnOlderTimeKey() {
        enqueueMany(3, "c1", 1);
        double serverNow = Double.parseDouble(redis.sync().time().get(0));
        redis.sync().set(spec(60, 3, true).timeKey(), String.format(Locale.ROOT, "%.6f", serverNow - 30));
        assertInstanceOf(HandOut.HandedOut.class, handOut(spec(60, 10, false)), "not moderated: the time key is not read");
        HandOut.Wait wait = assertInstanceOf(HandOut.Wait.class, handOut(spec(60, 3, true)), "20 s from the hand-out just made");
        assertTrue(wait.delay().toMillis() > 19_000 && wait.delay().toMillis() <= 20_000, wait.delay().toString());
    }

    /**
     * A window of one hit is trimmed at every hand-out, but keeps its newest entry, uncounted: the hand-out before the
     * next, which a node's first request after reading a Crawl-delay is checked against.
     */
    @Test
    void aTrimKeepsTheNewestEntryUncountedAsTheHandOutBeforeTheNext() throws Exception {
        ThrottleSpec spec = spec(10, 1, false);
        enqueueMany(3, "c1", 1);
        double serverNow = Double.parseDouble(redis.sync().time().get(0));
        redis.sync().zadd(spec.windowKey(), ScoredValue.just(serverNow - 40, "older"), ScoredValue.just(serverNow - 30, "newest"));

        HandOut.HandedOut handedOut = assertInstanceOf(HandOut.HandedOut.class, handOut(spec), "an entry older than the window counts not");
        assertEquals(2L, redis.sync().zcard(spec.windowKey()), "the older one left; the newest and the new one stay");
        Instant before = throttle.handOutBefore(spec, handedOut.at(), Duration.ZERO).get().orElseThrow();
        assertEquals(serverNow - 30, before.getEpochSecond() + before.getNano() / 1e9, 0.001, "the hand-out before the next");
        assertInstanceOf(HandOut.Wait.class, handOut(spec), "the hand-out just made fills the window");
    }

    @Test
    void aFullWindowSaysWhenItsOldestEntryLeaves() {
        ThrottleSpec spec = spec(3, 2, false);
        enqueueMany(5, "c1", 1);
        handOut(spec);
        handOut(spec);
        HandOut.Wait wait = assertInstanceOf(HandOut.Wait.class, handOut(spec));
        assertTrue(wait.delay().toMillis() > 2_000 && wait.delay().toMillis() <= 3_000, wait.delay().toString());
        assertEquals(2, redis.sync().zcard(spec.windowKey()));
        Long ttl = redis.sync().ttl(spec.windowKey());
        assertTrue(ttl > 0 && ttl <= 6, "EXPIRE int(window*2): " + ttl);
    }

    /**
     * A throttle opened far above its rate keeps its window key short: past 128 entries, those older than the window go,
     * at every 32nd count rather than at every decision.
     */
    @Test
    void aLongWindowIsTrimmedEvenFarBelowItsLimitAtEveryThirtySecondCount() {
        ThrottleSpec spec = spec(60, 1_000_000, false);
        enqueueMany(24, "c1", 1);
        double serverNow = Double.parseDouble(redis.sync().time().get(0));
        for (int i = 0; i < 200; i++) {
            String old = Double.toString(serverNow - 61 - i);
            redis.sync().zadd(spec.windowKey(), Double.parseDouble(old), old);
        }
        String recent = Double.toString(serverNow - 30);
        redis.sync().zadd(spec.windowKey(), Double.parseDouble(recent), recent);
        for (int i = 0; i < 23; i++) {
            assertInstanceOf(HandOut.HandedOut.class, handOut(spec));
        }
        assertEquals(224, redis.sync().zcard(spec.windowKey()), "counts of 201 to 223 trim nothing");
        assertInstanceOf(HandOut.HandedOut.class, handOut(spec));
        List<String> window = redis.sync().zrange(spec.windowKey(), 0, -1);
        assertEquals(25, window.size(), "the count of 224 trimmed what is older than the window: the hand-outs and the entry still in it");
        assertEquals(recent, window.get(0));
    }

    @Test
    void aWindowLengthenedLiveKeepsCountingTheHandOutsOfTheShorterOne() {
        enqueueMany(2, "c1", 1);
        HandOut.HandedOut out = assertInstanceOf(HandOut.HandedOut.class, handOut(spec(1, 1, false)));
        ThrottleSpec lengthened = spec(60, 1, false);
        assertInstanceOf(HandOut.Wait.class, handOut(lengthened));
        // the keys the one-second window wrote expire after two seconds; the hand-out is in the new window for a minute
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> Long.parseLong(redis.sync().time().get(0)) >= out.at().getEpochSecond() + 3);
        assertInstanceOf(HandOut.Wait.class, handOut(lengthened), "one hand-out a minute");
    }

    @Test
    void aSpacingLengthenedLiveKeepsTheLastHandOut() {
        enqueueMany(2, "c1", 1);
        HandOut.HandedOut out = assertInstanceOf(HandOut.HandedOut.class, handOut(spec(1, 2, true)));
        ThrottleSpec lengthened = spec(120, 2, true);
        assertInstanceOf(HandOut.Wait.class, handOut(lengthened));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> Long.parseLong(redis.sync().time().get(0)) >= out.at().getEpochSecond() + 3);
        assertInstanceOf(HandOut.Wait.class, handOut(lengthened), "hand-outs a minute apart");
    }

    @Test
    void handsOutTheHighestPriorityOfEitherShapeAndLeasesIt() {
        enqueue(Members.feedItem("https://ex1.com/low", "app", "c1", 1, 0));
        String high = Members.serializedRequest("https://ex1.com/high", "app", "c1", 50, 0);
        enqueue(high);
        HandOut.HandedOut out = assertInstanceOf(HandOut.HandedOut.class, handOut(spec(60, 10, false)));
        assertEquals(high, out.member());
        assertEquals(-50, out.score());
        String leaseId = out.leaseId().orElseThrow();
        assertTrue(leaseId.startsWith("ex1.com|-50|node1-"), leaseId);
        assertEquals(high, redis.sync().hget(Keyspace.leased(spider), leaseId));
        Double deadline = redis.sync().zscore(Keyspace.leases(spider), leaseId);
        long expected = out.at().toEpochMilli() + LEASE.toMillis();
        assertTrue(Math.abs(deadline - expected) <= 1, deadline + " vs " + expected);
        assertEquals(1, throttle.size(queue));
        assertEquals(2, counts.crawl(new CrawlRef(spider, "app", "c1")).orElseThrow().pending(), "a leased request is still pending");
    }

    @Test
    void windowEntriesAndModerationTimeAreFloatEpochsFromTheServerClock() {
        ThrottleSpec spec = spec(60, 10, true);
        enqueueMany(1, "c1", 1);
        HandOut.HandedOut out = assertInstanceOf(HandOut.HandedOut.class, handOut(spec));
        String at = out.at().getEpochSecond() + "." + String.format("%06d", out.at().getNano() / 1000);
        assertEquals(List.of(at), redis.sync().zrange(spec.windowKey(), 0, -1));
        assertEquals(Double.parseDouble(at), redis.sync().zscore(spec.windowKey(), at));
        assertEquals(at, redis.sync().get(spec.timeKey()));
        assertTrue(redis.sync().ttl(spec.timeKey()) > 100, "EX int(window*2)");
        List<String> time = redis.sync().time();
        assertTrue(Math.abs(Long.parseLong(time.get(0)) - out.at().getEpochSecond()) <= 2);
    }

    @Test
    void respectsAModerationTimeWrittenByAPythonCrawler() {
        ThrottleSpec spec = spec(60, 10, true);
        enqueueMany(2, "c1", 1);
        double serverNow = Double.parseDouble(redis.sync().time().get(0));
        redis.sync().set(spec.timeKey(), Double.toString(serverNow - 2.5));
        HandOut.Wait wait = assertInstanceOf(HandOut.Wait.class, handOut(spec));
        assertTrue(wait.delay().toMillis() > 2_000 && wait.delay().toMillis() <= 4_500, wait.delay().toString());
        redis.sync().set(spec.timeKey(), Double.toString(serverNow - 7));
        assertInstanceOf(HandOut.HandedOut.class, handOut(spec));
    }

    @Test
    void dropsMembersOfStoppedAndExpiredCrawlsWithTheirAccounting() {
        enqueueMany(3, "stopped", 90);
        long serverNow = Long.parseLong(redis.sync().time().get(0));
        enqueue(Members.serializedRequest("https://ex1.com/soon", "app", "expiring", 80, serverNow + 1));
        String wanted = Members.feedItem("https://ex1.com/wanted", "app", "live", 1, 0);
        enqueue(wanted);
        redis.sync().sadd(Keyspace.blacklist(spider), "app||stopped");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> Long.parseLong(redis.sync().time().get(0)) >= serverNow + 1);

        HandOut.HandedOut out = assertInstanceOf(HandOut.HandedOut.class, handOut(spec(60, 10, false)));
        assertEquals(wanted, out.member());
        assertEquals(4, out.dropped());
        assertEquals(1, redis.sync().zcard(spec(60, 10, false).windowKey()), "drops spend no slot");
        assertEquals(0, counts.crawl(new CrawlRef(spider, "app", "stopped")).orElseThrow().pending());
        assertEquals(0, counts.crawl(new CrawlRef(spider, "app", "expiring")).orElseThrow().pending());
        assertEquals(1, counts.crawl(new CrawlRef(spider, "app", "live")).orElseThrow().pending());
    }

    @Test
    void dropsAtMostABoundedNumberPerCall() {
        enqueueMany(ThrottledQueue.MAX_DROPS_PER_DECISION + 20, "stopped", 5);
        enqueueMany(1, "live", 1);
        redis.sync().sadd(Keyspace.blacklist(spider), "app||stopped");
        assertEquals(new HandOut.Wait(Duration.ZERO, ThrottledQueue.MAX_DROPS_PER_DECISION), handOut(spec(60, 10, false)));
        HandOut.HandedOut out = assertInstanceOf(HandOut.HandedOut.class, handOut(spec(60, 10, false)));
        assertEquals(20, out.dropped());
    }

    @Test
    void popDeletesInsteadOfLeasing() {
        enqueueMany(1, "c1", 1);
        HandOut.HandedOut out = assertInstanceOf(HandOut.HandedOut.class, throttle.pop(queue, spec(60, 10, false)));
        assertEquals(Optional.empty(), out.leaseId());
        assertEquals(0, redis.sync().hlen(Keyspace.leased(spider)));
        assertEquals(0, counts.crawl(new CrawlRef(spider, "app", "c1")).orElseThrow().pending());
    }

    @Test
    void handsOutAMemberItCannotReadSoThatItsTakerReportsIt() {
        redis.sync().zadd(queue.key(), -1, "not json");
        HandOut.HandedOut out = assertInstanceOf(HandOut.HandedOut.class, handOut(spec(60, 10, false)));
        assertEquals("not json", out.member());
        assertThrows(MalformedQueueMemberException.class, () -> QueueMember.parse(out.member()));
    }

    @Test
    void refusesALeaseIdInUseAndKeepsTheRequest() {
        enqueue(Members.feedItem("https://ex1.com/a", "app", "c1", 1, 0));
        enqueue(Members.feedItem("https://ex1.com/b", "app", "c1", 1, 0));
        assertInstanceOf(HandOut.HandedOut.class, throttle.handOut(queue, spec(60, 10, false), LEASE, "same"));
        HandOut.Failed refused = assertInstanceOf(HandOut.Failed.class, throttle.handOut(queue, spec(60, 10, false), LEASE, "same"));
        assertTrue(refused.reason().contains("already in use"), refused.reason());
        assertEquals(1, throttle.size(queue));
        assertEquals("1", redis.sync().hget(Keyspace.queueLengths(spider), queue.domain()), "the length our scripts left is right");
        assertThrows(IllegalArgumentException.class, () -> throttle.handOut(queue, spec(60, 10, false), LEASE, "a|b"));
    }

    @Test
    void aDecisionFailingAfterTheLeaseTakesItBackAtOnce() {
        enqueue(Members.feedItem("https://ex1.com/a", "app", "c1", 1, 0));
        // a window Redis cannot expire: EXPIRE of the window key fails once the request is leased
        ThrottleSpec unexpirable = spec(1e16, 10, false);
        HandOut.Failed failed = assertInstanceOf(HandOut.Failed.class, throttle.handOut(queue, unexpirable, LEASE, holder.next()));
        assertTrue(failed.reason().contains("expire"), failed.reason());
        assertEquals(1, throttle.size(queue), "the request is back in its queue, without waiting for the reaper");
        assertEquals(0, redis.sync().hlen(Keyspace.leased(spider)));
        assertEquals(0, redis.sync().zcard(Keyspace.leases(spider)));
        assertEquals(0, redis.sync().zcard(unexpirable.windowKey()), "no slot was spent");
        assertEquals("1", redis.sync().hget(Keyspace.queueLengths(spider), queue.domain()));
    }

    /** A key of the wrong type that a hand-out meets only after it took the head of the queue. */
    private String corruptedKey(String role) {
        return switch (role) {
            case "blacklist" -> Keyspace.blacklist(spider);
            case "leases" -> Keyspace.leases(spider);
            default -> throw new IllegalArgumentException(role);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"blacklist", "leases"})
    void aDecisionFailingAfterItTookTheHeadPutsItBack(String role) {
        ThrottleSpec spec = spec(60, 10, false);
        String member = Members.feedItem("https://ex1.com/a", "app", "c1", 1, 0);
        enqueue(member);
        corrupt(corruptedKey(role));
        HandOut.Failed failed = assertInstanceOf(HandOut.Failed.class, handOut(spec));
        assertTrue(failed.reason().startsWith("WRONGTYPE"), failed.reason());
        assertEquals(List.of(member), redis.sync().zrange(queue.key(), 0, -1), "the request is back in its queue");
        assertEquals(0, redis.sync().hlen(Keyspace.leased(spider)), "and not leased");
        assertEquals(0, redis.sync().zcard(spec.windowKey()), "no slot was spent");
    }

    @Test
    void aQueueLengthsKeyRedisRefusesLeavesHandOutsGoing() {
        String member = Members.feedItem("https://ex1.com/a", "app", "c1", 1, 0);
        enqueue(member);
        corrupt(Keyspace.queueLengths(spider));
        HandOut.HandedOut out = assertInstanceOf(HandOut.HandedOut.class, handOut(spec(60, 10, false)));
        assertEquals(member, out.member());
    }

    @Test
    void aCrawlWhoseAccountingRedisRefusesIsHandedOutAllTheSameAndNoLongerTrusted() {
        String member = Members.feedItem("https://ex1.com/a", "app", "c1", 1, 0);
        enqueue(member);
        CrawlRef crawl = new CrawlRef(spider, "app", "c1");
        corrupt(crawl.accountingKey());
        HandOut.HandedOut out = assertInstanceOf(HandOut.HandedOut.class, handOut(spec(60, 10, false)));
        assertEquals(member, out.member());
        assertTrue(new CrawlCounts(redis).foreign(crawl), "its info and completion read the queues");
    }

    @Test
    void aFailedDecisionSaysWhatItDroppedBeforeAndKeepsOnlyThoseOut() {
        enqueue(Members.feedItem("https://ex1.com/stopped", "app", "stopped", 5, 0));
        String live = Members.feedItem("https://ex1.com/a", "app", "c1", 1, 0);
        enqueue(live);
        redis.sync().sadd(Keyspace.blacklist(spider), "app||stopped");
        corrupt(corruptedKey("leases"));
        assertEquals(1, assertInstanceOf(HandOut.Failed.class, handOut(spec(60, 10, false))).dropped());
        assertEquals(List.of(live), redis.sync().zrange(queue.key(), 0, -1));
        assertEquals("1", redis.sync().hget(Keyspace.queueLengths(spider), queue.domain()));
    }

    @Test
    void clearRemovesTheQueueAndItsThrottleKeys() {
        ThrottleSpec spec = spec(60, 10, true);
        enqueueMany(2, "c1", 1);
        handOut(spec);
        throttle.clear(queue, spec);
        assertEquals(0, redis.sync().exists(queue.key(), spec.windowKey(), spec.timeKey()));
        assertFalse(throttle.size(queue) > 0);
    }
}
