package org.scrapycluster.crawler.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.redis.RedisConnection;

/** Discovery finds the domain queues of a spider, through its active domains and the keyspace scan. */
class DiscoveryTest {

    private final RedisConnection redis = PrivateRedis.connection();
    private final String spider = "discovery" + UUID.randomUUID().toString().replace("-", "");
    private final Set<String> found = ConcurrentHashMap.newKeySet();
    private final Discovery discovery = new Discovery(redis, spider, Duration.ofSeconds(1), Duration.ofMinutes(1), found::addAll);

    @AfterEach
    void close() {
        discovery.close();
        redis.sync().del(Keyspace.activeDomains(spider), spider + ":example.com:queue");
    }

    @Test
    void activeDomainsRedisRefusesLeaveTheKeyspaceScanToFindTheQueues() {
        redis.sync().set(Keyspace.activeDomains(spider), "not a sorted set");
        redis.sync().zadd(spider + ":example.com:queue", -100, "{\"url\": \"http://example.com/\"}");

        discovery.lookOnce();

        assertEquals(Set.of("example.com"), found);
    }
}
