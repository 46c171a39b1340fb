package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.TestRedis;

@ExtendWith(TestRedis.class)
class ActiveDomainsTest {

    private final RedisConnection redis;
    private final ActiveDomains active;
    private final String spider = TestRedis.unique("act");

    ActiveDomainsTest(RedisConnection redis) {
        this.redis = redis;
        active = new ActiveDomains(redis);
    }

    private void becameActive(String domain, long millis) {
        redis.sync().zadd(Keyspace.activeDomains(spider), millis, domain);
    }

    @Test
    void queuesKeptOutOfTheIndexArePutInAfterTheDomainsThereAndAnEmptyQueueIsNot() {
        becameActive("known.com", 1000);
        redis.sync().zadd(Keyspace.queue(spider, "known.com"), 0, "{\"url\": \"http://known.com/\"}");
        redis.sync().zadd(Keyspace.queue(spider, "foreign.com"), 0, "{\"url\": \"http://foreign.com/\"}");

        assertEquals(1, active.activate(spider, List.of("known.com", "foreign.com", "gone.com")));

        ActiveDomains.Changes all = active.changedSince(spider, ActiveDomains.Cursor.START, 100);
        assertEquals(List.of("known.com", "foreign.com"), all.domains(), "put in after every domain a look has read");
        assertEquals(0, active.activate(spider, List.of("known.com", "foreign.com")), "each once");
    }

    @Test
    void reportsEachDomainOnceAcrossLooks() {
        becameActive("a.com", 1000);
        becameActive("b.com", 2000);
        ActiveDomains.Changes first = active.changedSince(spider, ActiveDomains.Cursor.START, 100);
        assertEquals(List.of("a.com", "b.com"), first.domains());

        ActiveDomains.Changes nothing = active.changedSince(spider, first.next(), 100);
        assertEquals(List.of(), nothing.domains());

        becameActive("c.com", 2000);
        becameActive("d.com", 3000);
        ActiveDomains.Changes second = active.changedSince(spider, nothing.next(), 100);
        assertEquals(List.of("c.com", "d.com"), second.domains(), "a domain with the boundary's score is not missed");
    }

    @Test
    void aDomainThatLeavesAndComesBackIsReportedAgainEvenWithinTheMillisecondItWasSeenIn() {
        Enqueuer enqueuer = new Enqueuer(redis, false);
        ThrottledQueue throttle = new ThrottledQueue(redis);
        LeaseHolder holder = new LeaseHolder("node1");
        ActiveDomains.Cursor cursor = ActiveDomains.Cursor.START;
        // a round is two round trips to a local Redis, as the commands of one connection run in the order sent once
        // Redis knows the scripts (the first round waits for each), so some rounds fall within one server millisecond
        for (int round = 0; round < 500; round++) {
            QueueKey queue = new QueueKey(spider, "d" + round + ".com");
            ThrottleSpec spec = new ThrottleSpec(queue.domain(), 60, 100, false);
            CompletableFuture<List<EnqueueOutcome>> queued = enqueuer.enqueueBatchAsync(List.of(request(queue, "first")));
            if (round == 0) {
                queued.join();
            }
            ActiveDomains.Changes seen = active.changedSince(spider, cursor, 100);
            assertEquals(List.of(queue.domain()), seen.domains());
            Duration lease = Duration.ofMinutes(1);
            CompletableFuture<List<HandOut>> handOuts = throttle.decideAll(List.of(
                    ThrottledQueue.Decision.lease(queue, spec, lease, holder.next()),
                    ThrottledQueue.Decision.lease(queue, spec, lease, holder.next())));
            if (round == 0) {
                handOuts.join();
            }
            CompletableFuture<List<EnqueueOutcome>> queuedAgain = enqueuer.enqueueBatchAsync(List.of(request(queue, "again")));
            assertEquals(new HandOut.Empty(0), handOuts.join().get(1), "the domain left the active domains");
            assertEquals(List.of(EnqueueOutcome.QUEUED), queuedAgain.join());
            ActiveDomains.Changes again = active.changedSince(spider, seen.next(), 100);
            assertEquals(List.of(queue.domain()), again.domains(), "round " + round);
            cursor = again.next();
        }
    }

    private static EnqueueRequest request(QueueKey queue, String path) {
        return EnqueueRequest.of(queue, Members.feedItem("https://" + queue.domain() + "/" + path, "app", "c1", 1, 0));
    }

    @Test
    void pagesThroughManyDomainsWithTheSameScore() {
        for (int i = 0; i < 25; i++) {
            becameActive(String.format("d%02d.com", i), 5000);
        }
        ActiveDomains.Cursor cursor = ActiveDomains.Cursor.START;
        List<String> seen = new java.util.ArrayList<>();
        ActiveDomains.Changes page;
        do {
            page = active.changedSince(spider, cursor, 10);
            seen.addAll(page.domains());
            cursor = page.next();
        } while (!page.domains().isEmpty());
        assertEquals(25, seen.size());
        assertEquals(25, seen.stream().distinct().count());
    }
}
