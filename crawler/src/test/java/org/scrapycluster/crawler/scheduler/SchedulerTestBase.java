package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.scrapycluster.common.queue.LeaseHolder;
import org.scrapycluster.common.queue.ThrottleKeyStyle;
import org.scrapycluster.common.queue.ThrottledQueue;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.embedded.junit.ManualClock;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * What the scheduler's tests share: a scheduler whose clock is moved by hand and whose loop the test turns (never its own
 * thread), against a private redis-server running the real hand-out script, and the counts of what it asked for and
 * handed out. Each test has a spider, and so keys, of its own.
 */
abstract class SchedulerTestBase {

    static final RedisConnection redis = PrivateRedis.connection();
    static final SchedulerLimits ROOMY = new SchedulerLimits(16, 8, 8, Duration.ofMinutes(1), Duration.ofSeconds(5));

    final String spider = "sched" + System.nanoTime();
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final ManualClock clock = new ManualClock();
    final SchedulerInbox inbox = new SchedulerInbox();
    final List<LeasedRequest> dispatched = new ArrayList<>();
    final Set<String> blacklist = new HashSet<>();

    Scheduler scheduler(DomainThrottles throttles, SchedulerLimits limits) {
        return scheduler(throttles, limits, blacklist::contains);
    }

    Scheduler scheduler(DomainThrottles throttles, SchedulerLimits limits, Predicate<String> heldBack) {
        return new Scheduler(spider, new ThrottledQueue(redis), throttles, heldBack, new LeaseHolder("n1"), limits,
                new CrawlerMetrics(registry, spider, "n1"), inbox, clock, dispatched::add);
    }

    /** QUEUE_HITS per QUEUE_WINDOW seconds, keys by spider type so each test has its own, robots.txt not awaited. */
    DomainThrottles throttles(double window, int hits, boolean moderated) {
        return new DomainThrottles(spider, new ThrottleKeyStyle(true, false), window, hits, moderated, "1.1.1.1", 1_000);
    }

    void queue(String domain, int requests) {
        for (int i = 0; i < requests; i++) {
            redis.sync().zadd(spider + ":" + domain + ":queue", -i, "{\"url\":\"http://" + domain + "/" + i + "\"}");
        }
    }

    /** A scheduler under {@code throttles} with {@code requests} queued for {@code domain}, which it has just been told of. */
    Scheduler toldOfWork(DomainThrottles throttles, String domain, int requests) {
        Scheduler scheduler = scheduler(throttles, ROOMY);
        queue(domain, requests);
        inbox.domainsFound(List.of(domain));
        return scheduler;
    }

    /** Turns the loop until every hand-out call it made has been answered and nothing more is ready. */
    static void settle(Scheduler scheduler) throws InterruptedException {
        scheduler.turn();
        while (scheduler.awaitingAnswers()) {
            assertTrue(scheduler.awaitEvent(TimeUnit.SECONDS.toNanos(30)), "a hand-out call was never answered");
            scheduler.turn();
        }
    }

    /** Moves the clock by {@code elapsed}, then {@link #settle settles}. */
    void settleAfter(Scheduler scheduler, Duration elapsed) throws InterruptedException {
        clock.advance(elapsed);
        settle(scheduler);
    }

    double calls(String outcome) {
        var counter = registry.find("crawler.handouts").tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    double allCalls() {
        return registry.find("crawler.handouts").counters().stream().mapToDouble(c -> c.count()).sum();
    }

    Map<String, Long> dispatchedPerDomain() {
        return dispatched.stream().collect(Collectors.groupingBy(r -> r.queue().domain(), Collectors.counting()));
    }
}
