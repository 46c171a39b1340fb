package org.scrapycluster.common.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

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
