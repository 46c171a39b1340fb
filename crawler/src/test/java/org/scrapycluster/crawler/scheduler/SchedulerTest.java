package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import io.lettuce.core.ScoredValue;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.queue.LeaseHolder;
import org.scrapycluster.common.queue.ThrottleKeyStyle;
import org.scrapycluster.common.queue.ThrottleSpec;
import org.scrapycluster.common.queue.ThrottledQueue;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.zookeeper.DomainThrottle;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;

/**
 * What the scheduler asks Redis for and when, with its clock moved by hand and its loop turned by the test (by its own
 * thread only in the test of what ends that thread), against a private redis-server running the real hand-out script. Where the script decides on the
 * server's clock (moderation spacing, a Retry-After pause), the test lets server time pass by removing the key that
 * holds the decision. The tests with servers that stop or pause are {@link SchedulerServersTest}.
 */
class SchedulerTest extends SchedulerTestBase {

    @Test
    void aDomainWhoseDecisionFailsInRedisIsCountedAndRetriedWhileTheDomainsAskedWithItAreServed() throws Exception {
        Scheduler scheduler = scheduler(throttles(60, 10, false), ROOMY);
        queue("good1.test", 1);
        redis.sync().set(spider + ":broken.test:queue", "not a queue");
        queue("good2.test", 1);
        // good1 goes alone; broken and good2 become ready while it is out and go together in the next call
        inbox.domainsFound(List.of("good1.test", "broken.test", "good2.test"));
        settle(scheduler);
        assertEquals(Map.of("good1.test", 1L, "good2.test", 1L), dispatchedPerDomain(),
                "the domain asked for in the same call as the broken one is served at once");
        assertEquals(1, calls("domain_error"));
        assertEquals(0, calls("failed"), "Redis answered the call: no outage");

        settleAfter(scheduler, ROOMY.retryAfterFailure());
        assertEquals(2, calls("domain_error"), "the broken domain is asked for again after the retry delay");
        redis.sync().del(spider + ":broken.test:queue");
    }

    @Test
    void whileRedisIsAwayOneDomainACallIsAskedForAgainAndAllOnceRedisAnswers() throws Exception {
        EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("scheduler-outage"));
        try (RedisConnection own = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()))) {
            Scheduler scheduler = new Scheduler(spider, new ThrottledQueue(own), throttles(60, 10, false), blacklist::contains,
                    new LeaseHolder("n1"), ROOMY, new CrawlerMetrics(registry, spider, "n1"), inbox, clock, dispatched::add);
            List<String> domains = IntStream.range(0, 200).mapToObj(i -> "d" + i + ".test").toList();
            server.stop();
            inbox.domainsFound(domains);
            settle(scheduler);
            assertEquals(200, calls("failed"), "each domain asked once as Redis went");

            for (int second = 0; second < 30; second++) {
                settleAfter(scheduler, ROOMY.retryAfterFailure());
            }
            assertEquals(230, calls("failed"), "then one domain each retry delay, not every domain");

            server.restart();
            Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> {
                settleAfter(scheduler, ROOMY.retryAfterFailure());
                return calls("empty") > 0;
            });
            settle(scheduler);
            assertEquals(200, calls("empty"), "once a call is answered, every domain is asked for again");
        } finally {
            server.close();
        }
    }

    @Test
    void aFailureThatEndsTheLoopIsToldAndTheLoopsLivenessGoesDown() {
        IllegalStateException bug = new IllegalStateException("a bug in what a hand-out is given to");
        Scheduler scheduler = new Scheduler(spider, new ThrottledQueue(redis), throttles(60, 10, false), domain -> false,
                new LeaseHolder("n1"), ROOMY, new CrawlerMetrics(registry, spider, "n1"), inbox, clock, request -> {
                    throw bug;
                });
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        queue("bug.test", 1);
        inbox.domainsFound(List.of("bug.test"));
        scheduler.start(failures::add);

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !failures.isEmpty());
        assertEquals(List.of(bug), failures, "told once, with the failure itself");
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> !scheduler.liveness().isUp());
        scheduler.close();
    }

    @Test
    void aNewlyFoundDomainIsAskedForAtOnceAndAgainWhenWorkArrivesAfterItRanDry() throws Exception {
        Scheduler scheduler = toldOfWork(throttles(60, 10, false), "fresh.test", 1);
        settle(scheduler);
        assertEquals(1, dispatched.size(), "handed out without the clock moving");
        assertEquals(1, calls("empty"), "unmoderated: asked again at once, found nothing, dropped");

        settleAfter(scheduler, Duration.ofMinutes(10));
        assertEquals(2, allCalls(), "a dropped domain is not asked for again by itself");

        queue("fresh.test", 1);
        inbox.domainsFound(List.of("fresh.test"));
        settle(scheduler);
        assertEquals(2, dispatched.size(), "found again: asked again without the clock moving");
        assertEquals("fresh.test", dispatched.get(1).queue().domain());
    }

    /** Makes the server's clock say the spacing has passed: its hand-outs, the last one too, were a window ago. */
    private static void lastHandOutAWindowAgo(ThrottleSpec spec) {
        long serverSeconds = Long.parseLong(redis.sync().time().getFirst());
        redis.sync().set(spec.timeKey(), Double.toString(serverSeconds - spec.windowSeconds()));
        for (ScoredValue<String> entry : redis.sync().zrangeWithScores(spec.windowKey(), 0, -1)) {
            redis.sync().zadd(spec.windowKey(), entry.getScore() - spec.windowSeconds(), entry.getValue());
        }
    }

    @Test
    void moderatedHandOutsAreAskedForOneSpacingApartAndNeverInABurst() throws Exception {
        DomainThrottles throttles = throttles(60, 3, true);
        Scheduler scheduler = toldOfWork(throttles, "spaced.test", 3);
        ThrottleSpec spec = throttles.specFor("spaced.test");
        settle(scheduler);
        assertEquals(1, dispatched.size());

        settleAfter(scheduler, Duration.ofSeconds(20).minusMillis(1));
        assertEquals(1, allCalls(), "not asked again before window / hits has passed, though work is waiting");

        settleAfter(scheduler, Duration.ofMillis(1));
        assertEquals(1, calls("wait"), "asked once the spacing passed on this node; the server's clock says wait");
        assertEquals(1, dispatched.size());

        settleAfter(scheduler, Duration.ofSeconds(19));
        assertEquals(2, allCalls(), "the server's wait is kept, not retried in a loop");

        lastHandOutAWindowAgo(spec);
        settleAfter(scheduler, Duration.ofSeconds(1));
        assertEquals(2, dispatched.size(), "the spacing passed on both clocks: the second request goes");

        lastHandOutAWindowAgo(spec);
        settle(scheduler);
        assertEquals(2, dispatched.size(), "even with the server's spacing gone, no catch-up before this node's spacing");
        assertEquals(3, allCalls());
    }

    @Test
    void aRetryAfterPauseHoldsTheDomainUntilItEndsThenItIsAskedAgain() throws Exception {
        DomainThrottles throttles = throttles(60, 10, false);
        ThrottleSpec spec = throttles.specFor("busy.test");
        new ThrottledQueue(redis).pauseAsync(spec, Duration.ofSeconds(30)).get();
        Scheduler scheduler = toldOfWork(throttles, "busy.test", 2);
        settle(scheduler);
        assertEquals(1, calls("wait"));
        assertEquals(0, dispatched.size(), "a 429 with Retry-After paused the domain for every node");

        settleAfter(scheduler, Duration.ofSeconds(29));
        assertEquals(1, allCalls(), "not asked during the pause");

        redis.sync().del(spec.pauseKey());
        settleAfter(scheduler, Duration.ofSeconds(1));
        assertEquals(2, dispatched.size(), "the pause over, both requests go (unmoderated)");
    }

    @Test
    void theHoldsOfDomainsNeverAskedForAgainAreDroppedOnceEndedRatherThanKeptForTheNodesLife() throws Exception {
        Scheduler scheduler = scheduler(throttles(60, 10, false), ROOMY);
        for (int round = 0; round < 100; round++) {
            for (int domain = 0; domain < 100; domain++) {
                inbox.hold("gone" + round + "-" + domain + ".test", Duration.ofSeconds(1)); // a Retry-After on a last request
            }
            settleAfter(scheduler, Duration.ofSeconds(2));
        }
        assertTrue(scheduler.holdsKept() <= 200, "10,000 holds ended, " + scheduler.holdsKept() + " kept");

        inbox.hold("held.test", Duration.ofSeconds(30));
        for (int domain = 0; domain < 300; domain++) {
            inbox.hold("other" + domain + ".test", Duration.ofSeconds(1));
        }
        settleAfter(scheduler, Duration.ofSeconds(2));
        for (int domain = 0; domain < 300; domain++) {
            inbox.hold("later" + domain + ".test", Duration.ofSeconds(1));
        }
        queue("held.test", 1);
        inbox.domainsFound(List.of("held.test"));
        settle(scheduler);
        assertEquals(0, allCalls(), "a hold that has not ended is kept");
    }

    @Test
    void aDomainHeldOnTheNodeIsNotAskedForUntilTheHoldEndsWhateverRedisAnswers() throws Exception {
        Scheduler scheduler = scheduler(throttles(60, 10, false), ROOMY);
        queue("held.test", 2);
        inbox.hold("held.test", Duration.ofSeconds(30));
        inbox.hold("held.test", Duration.ofSeconds(10));
        inbox.domainsFound(List.of("held.test"));
        settle(scheduler);
        assertEquals(0, allCalls(), "no pause in Redis, but the node holds the domain");

        settleAfter(scheduler, Duration.ofSeconds(30).minusMillis(1));
        assertEquals(0, allCalls(), "a shorter hold leaves the longer one");

        inbox.configChanged(Set.of("held.test"));
        settle(scheduler);
        assertEquals(0, allCalls(), "a config change of the domain makes it ready, but the hold stands");

        settleAfter(scheduler, Duration.ofMillis(1));
        assertEquals(2, dispatched.size(), "the hold over, both requests go (unmoderated)");
    }

    @Test
    void aConfigChangeOfOtherDomainsLeavesAWaitingDomainToItsTime() throws Exception {
        DomainThrottles throttles = throttles(60, 2, false);
        Scheduler scheduler = toldOfWork(throttles, "full.test", 3);
        settle(scheduler);
        assertEquals(3, allCalls(), "two hand-outs and a wait");

        throttles.overrides(Map.of("other.test", DomainThrottle.of(60, 10, 1)));
        inbox.configChanged(Set.of("other.test"));
        inbox.configChanged(Set.of());
        settle(scheduler);
        assertEquals(3, allCalls(), "not asked again: its throttle is as it was");

        settleAfter(scheduler, Duration.ofSeconds(59));
        assertEquals(3, allCalls());
        settleAfter(scheduler, Duration.ofSeconds(2));
        assertEquals(4, allCalls(), "asked again when its oldest slot frees");
    }

    @Test
    void aFullWindowWaitsForItsOldestSlotAndAZeroLimitWaitsAWindow() throws Exception {
        DomainThrottles throttles = throttles(60, 2, false);
        Scheduler scheduler = toldOfWork(throttles, "full.test", 3);
        settle(scheduler);
        assertEquals(2, dispatched.size(), "unmoderated: the window's hits go at once");
        assertEquals(1, calls("wait"));

        settleAfter(scheduler, Duration.ofSeconds(59));
        assertEquals(3, allCalls(), "not asked before the oldest slot frees");

        throttles.overrides(Map.of("full.test", DomainThrottle.of(60, 10, 0)));
        inbox.configChanged(Set.of("full.test"));
        settle(scheduler);
        assertEquals(1, calls("paused"), "a config change makes the domain ready now; a scale of 0 pauses it");

        settleAfter(scheduler, Duration.ofSeconds(59));
        assertEquals(1, calls("paused"), "a paused domain is asked again only after a window");
        settleAfter(scheduler, Duration.ofSeconds(1));
        assertEquals(2, calls("paused"));
    }

    @Test
    void concurrencyIsLimitedPerDomainAndPerNodeUntilRequestsFinish() throws Exception {
        Scheduler scheduler = scheduler(throttles(60, 100, false),
                new SchedulerLimits(3, 2, 8, Duration.ofMinutes(1), Duration.ofSeconds(5)));
        queue("one.test", 5);
        queue("two.test", 5);

        inbox.domainsFound(List.of("one.test", "two.test"));
        settle(scheduler);
        assertEquals(3, dispatched.size(), "three in flight on the node");
        assertTrue(dispatchedPerDomain().values().stream().allMatch(n -> n <= 2), "two per domain: " + dispatchedPerDomain());

        String busier = dispatchedPerDomain().entrySet().stream().filter(e -> e.getValue() == 2).findFirst().orElseThrow()
                .getKey();
        inbox.finished(busier, LastFetch.IN_TIME);
        settle(scheduler);
        assertEquals(4, dispatched.size(), "a finished request frees one slot");

        dispatched.stream().map(r -> r.queue().domain()).distinct().forEach(domain -> inbox.finished(domain, LastFetch.IN_TIME));
        settle(scheduler);
        assertEquals(6, dispatched.size(), "two slots freed, two more go");
    }

    @Test
    void whileResultsCannotBePublishedOneRequestIsInFlightAndHandOutsAreSpaced() throws Exception {
        Scheduler scheduler = scheduler(throttles(60, 100, false), ROOMY);
        queue("one.test", 10);
        queue("two.test", 10);

        inbox.publishingStalled(true);
        inbox.domainsFound(List.of("one.test", "two.test"));
        settle(scheduler);
        assertEquals(1, dispatched.size(), "one request while results cannot be published");
        clock.advance(Duration.ofMinutes(5));
        settle(scheduler);
        assertEquals(1, dispatched.size(), "and no other until it is done");

        inbox.finished(dispatched.get(0).queue().domain(), LastFetch.IN_TIME);
        settle(scheduler);
        assertEquals(2, dispatched.size(), "the next one once it is done");

        // a result that fails at once (Kafka refusing the node's credentials) does not have pages fetched as fast as they fail
        inbox.finished(dispatched.get(1).queue().domain(), LastFetch.IN_TIME);
        clock.advance(Scheduler.STALLED_SPACING.minusSeconds(1));
        settle(scheduler);
        assertEquals(2, dispatched.size(), "no hand-out sooner than STALLED_SPACING after the last");
        clock.advance(Duration.ofSeconds(1));
        settle(scheduler);
        assertEquals(3, dispatched.size(), "the next one STALLED_SPACING after the last");

        inbox.publishingStalled(false);
        settle(scheduler);
        assertEquals(3 + 15, dispatched.size(), "back to 16 in flight, 8 a domain: " + dispatchedPerDomain());
    }

    @Test
    void aDomainWhoseRobotsTxtIsUnreadHasOneRequestInFlight() throws Exception {
        DomainThrottles throttles = new DomainThrottles(spider, new ThrottleKeyStyle(true, false), 60, 100, false, "1.1.1.1", 1_000);
        throttles.awaitRobots();
        Scheduler scheduler = toldOfWork(throttles, "polite.test", 4);
        settle(scheduler);
        assertEquals(1, dispatched.size(), "one request until robots.txt is read");

        throttles.crawlDelay("polite.test", "polite.test", Duration.ZERO);
        inbox.finished("polite.test", LastFetch.IN_TIME);
        settle(scheduler);
        assertEquals(4, dispatched.size(), "robots.txt read: the per-domain limit of 8 applies, all four go");
    }

    @Test
    void aDomainWhoseFetchTimedOutHasOneRequestInFlightAndOneMoreForEachFetchThatEndsOtherwise() throws Exception {
        Scheduler scheduler = scheduler(throttles(60, 100, false), ROOMY);
        queue("slow.test", 40);
        queue("quick.test", 40);
        inbox.domainsFound(List.of("slow.test", "quick.test"));
        settle(scheduler);
        assertEquals(Map.of("slow.test", 8L, "quick.test", 8L), dispatchedPerDomain());

        finishThenCount(scheduler, "slow.test", 8, LastFetch.SLOW, 8 + 1, "timed out: one request in flight, not eight");
        assertEquals(1.0, registry.get("crawler.slow.domains").gauge().value());
        finishThenCount(scheduler, "quick.test", 1, LastFetch.IN_TIME, 8 + 1, "the other domain keeps its eight");

        finishThenCount(scheduler, "slow.test", 1, LastFetch.IN_TIME, 9 + 2, "an answer: two in flight");
        finishThenCount(scheduler, "slow.test", 2, LastFetch.IN_TIME, 11 + 4, "two more answers: four");
        finishThenCount(scheduler, "slow.test", 1, LastFetch.SLOW, 15, "a timeout again: back to one, three still in flight");
        finishThenCount(scheduler, "slow.test", 3, LastFetch.IN_TIME, 15 + 4, "one, and one more for each of three answers: four");
        finishThenCount(scheduler, "slow.test", 4, LastFetch.IN_TIME, 19 + 8, "seven answers since its timeout: the full eight again");
        assertEquals(0.0, registry.get("crawler.slow.domains").gauge().value());
    }

    @Test
    void slowDomainsTogetherHoldAtMostHalfTheNodesSlotsAndWaitForThemInTurn() throws Exception {
        Scheduler scheduler = scheduler(throttles(60, 100, false), ROOMY);
        List<String> dead = IntStream.rangeClosed(1, 12).mapToObj(i -> "dead" + i + ".test").toList();
        for (String domain : dead) {
            queue(domain, 4);
            inbox.finished(domain, LastFetch.SLOW); // a request of it timed out before: it is slow
        }
        queue("quick.test", 40);
        List<String> all = new ArrayList<>(dead);
        all.add("quick.test");
        inbox.domainsFound(all);
        settle(scheduler);
        assertEquals(8L, dispatchedPerDomain().get("quick.test"), "the domain that answers keeps its eight");
        assertEquals(8, dead.stream().filter(dispatchedPerDomain()::containsKey).count(), "eight slow domains, one request each");
        assertEquals(16, dispatched.size());

        String first = dispatched.stream().map(r -> r.queue().domain()).filter(dead::contains).findFirst().orElseThrow();
        finish(first, 1, LastFetch.SLOW);
        settle(scheduler);
        assertEquals(17, dispatched.size(), "a slow slot freed: one waiting slow domain takes it");
        assertEquals(8L, dispatchedPerDomain().get("quick.test"));

        finish("quick.test", 1, LastFetch.IN_TIME);
        settle(scheduler);
        assertEquals(8L + 1, dispatchedPerDomain().get("quick.test"), "and the quick domain's slot stays its own");
        assertEquals(18, dispatched.size());
        assertEquals(12.0, registry.get("crawler.slow.domains").gauge().value());

        settleAfter(scheduler, SlowDomains.MEMORY);
        assertEquals(0.0, registry.get("crawler.slow.domains").gauge().value(), "forgotten, though no request finished since");
    }

    @Test
    void requestsHandedOutBeforeTheirDomainWasSlowDoNotFreeTheSlowDomainsShare() throws Exception {
        Scheduler scheduler = scheduler(throttles(60, 100, false), ROOMY);
        List<String> dead = IntStream.rangeClosed(1, 8).mapToObj(i -> "dead" + i + ".test").toList();
        dead.forEach(domain -> {
            queue(domain, 4);
            inbox.finished(domain, LastFetch.SLOW);
        });
        queue("mixed.test", 30);
        inbox.domainsFound(List.of("mixed.test"));
        settle(scheduler);
        finishThenCount(scheduler, "mixed.test", 1, LastFetch.SLOW, 8, "slow now, with seven in flight");
        finishThenCount(scheduler, "mixed.test", 5, LastFetch.IN_TIME, 8 + 4, "a limit of six, two in flight: four handed out while slow");
        finishThenCount(scheduler, "mixed.test", 2, LastFetch.IN_TIME, 12 + 4,
                "not slow any more: eight in flight, four handed out while slow");

        inbox.domainsFound(dead);
        settle(scheduler);
        assertEquals(4, dead.stream().filter(dispatchedPerDomain()::containsKey).count(),
                "the slow domains' share of eight less the four still in flight");
    }

    @Test
    void aRequestHandedOutWhileItsDomainWasSlowGivesBackItsSlowSlotWhenItEndsDuringACallMadeSince() throws Exception {
        Scheduler scheduler = scheduler(throttles(60, 100, false), ROOMY);
        queue("mixed.test", 3);
        inbox.finished("mixed.test", LastFetch.SLOW);
        inbox.domainsFound(List.of("mixed.test"));
        settle(scheduler);
        finishThenCount(scheduler, "mixed.test", 1, LastFetch.IN_TIME, 3, "slow, a limit of two: two handed out while slow");

        clock.advance(SlowDomains.MEMORY.plusSeconds(1));
        try (RedisConnection admin = PrivateRedis.separateConnection()) {
            PrivateRedis.client(admin, "PAUSE", Long.toString(Duration.ofMinutes(1).toMillis()), "WRITE");
            try {
                inbox.finished("mixed.test", LastFetch.IN_TIME);
                scheduler.turn(); // slow no longer: one of the two ends, and a hand-out call goes out, held in Redis
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> admin.sync().clientList().contains(" flags=b "));
                inbox.finished("mixed.test", LastFetch.IN_TIME);
                scheduler.turn(); // the other ends while the call is out
            } finally {
                PrivateRedis.client(admin, "UNPAUSE");
            }
        }
        settle(scheduler); // the call finds the queue empty

        List<String> dead = IntStream.rangeClosed(1, 8).mapToObj(i -> "gone" + i + ".test").toList();
        dead.forEach(domain -> {
            queue(domain, 1);
            inbox.finished(domain, LastFetch.SLOW);
        });
        inbox.domainsFound(dead);
        settle(scheduler);
        assertEquals(8, dead.stream().filter(dispatchedPerDomain()::containsKey).count(), "the slow domains' whole share of eight");
    }

    /**
     * Tells the scheduler that {@code requests} requests of {@code domain} are done, lets it settle, and checks how many
     * requests of the domain it has handed out in all.
     */
    private void finishThenCount(Scheduler scheduler, String domain, int requests, LastFetch lastFetch, long dispatchedInAll,
            String why) throws InterruptedException {
        finish(domain, requests, lastFetch);
        settle(scheduler);
        assertEquals(dispatchedInAll, dispatchedPerDomain().get(domain), why);
    }

    /** Tells the scheduler that {@code requests} requests of {@code domain} are done. */
    private void finish(String domain, int requests, LastFetch lastFetch) {
        for (int i = 0; i < requests; i++) {
            inbox.finished(domain, lastFetch);
        }
    }

    @Test
    void aCrawlDelayOfCenturiesHoldsItsDomainAndTheOthersGoOn() throws Exception {
        DomainThrottles throttles = throttles(60, 100, false);
        // what crawler-commons reads from "Crawl-delay: 99999999999.5", in a robots.txt anyone may write
        throttles.crawlDelay("patient.test", "patient.test", Duration.ofMillis(99_999_999_999_500L));
        Scheduler scheduler = scheduler(throttles, ROOMY);
        queue("patient.test", 2);
        queue("other.test", 2);
        inbox.domainsFound(List.of("patient.test", "other.test"));
        settle(scheduler);
        assertEquals(Map.of("patient.test", 1L, "other.test", 2L), dispatchedPerDomain());

        settleAfter(scheduler, Duration.ofDays(365));
        assertEquals(3, dispatched.size(), "the second request of patient.test waits for its Crawl-delay");
    }

    @Test
    void aConfigChangeWhileADomainsHandOutCallIsOutAppliesOnceItIsAnswered() throws Exception {
        DomainThrottles throttles = throttles(60, 10, false);
        throttles.overrides(Map.of("paused.test", DomainThrottle.of(31_536_000, 10, 0))); // paused for a year
        Scheduler scheduler = toldOfWork(throttles, "paused.test", 2);
        scheduler.turn(); // asks; the answer, paused, is on its way

        throttles.overrides(Map.of()); // the pause is lifted meanwhile
        inbox.configChanged(Set.of("paused.test"));
        settle(scheduler);

        assertEquals(1, calls("paused"));
        assertEquals(2, dispatched.size(), "asked again at once under the new config, not a year later");
    }

    @Test
    void aZooKeeperWindowOfCenturiesHoldsItsDomainAndLosesNothing() throws Exception {
        DomainThrottles throttles = throttles(60, 100, false);
        // a domain-update request may set it: its schema bounds no window
        throttles.overrides(Map.of("vast.test", DomainThrottle.of(Long.MAX_VALUE, 1, 1)));
        Scheduler scheduler = toldOfWork(throttles, "vast.test", 2);
        settle(scheduler);
        assertEquals(1, dispatched.size(), "the window's one hit");

        settleAfter(scheduler, Duration.ofDays(365));
        assertEquals(1, dispatched.size());
        assertEquals(1, redis.sync().zcard(spider + ":vast.test:queue"), "the other request waits in its queue");
        assertEquals(1, redis.sync().zcard(spider + ":leases"), "and the one handed out is leased");
    }

    @Test
    void aBlacklistedDomainIsParkedUntilTheBlacklistChanges() throws Exception {
        blacklist.add("banned.test");
        Scheduler scheduler = toldOfWork(throttles(60, 10, false), "banned.test", 1);
        settle(scheduler);
        clock.advance(Duration.ofHours(1));
        inbox.domainsFound(List.of("banned.test"));
        settle(scheduler);
        assertEquals(0, allCalls(), "never asked for while blacklisted");

        blacklist.remove("banned.test");
        inbox.configChanged(Set.of());
        settle(scheduler);
        assertEquals(1, dispatched.size());
    }
}
