package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.service.Backoff;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;

/**
 * Sentinels that ask for a password ({@code requirepass}), as Bitnami's redis chart in Sentinel mode sets them
 * ({@code auth.sentinel: true}): the connection gives each Sentinel {@code REDIS_SENTINEL_PASSWORD}, or by default
 * {@code REDIS_PASSWORD}, and fails at once, saying why, without one (docs/operations.md "Redis failover"); Sentinels
 * with a user of their own are asked as {@code REDIS_SENTINEL_USERNAME}; a master name they do not monitor is said to be one.
 */
class SentinelPasswordTest {

    private static final String DATA_PASSWORD = "data-secret";
    private static final String SENTINEL_PASSWORD = "sentinel-secret";

    @Test
    void sentinelsWithTheDataNodesPasswordAreAskedWithItByDefault() {
        try (EmbeddedRedis master = masterWithPassword("sentinel-bitnami");
             TestSentinel sentinel = TestSentinel.start(master.port(), DATA_PASSWORD, DATA_PASSWORD);
             RedisConnection redis = RedisConnection.open(endpoint(sentinel, DATA_PASSWORD, null))) {
            assertWorks(redis);
        }
    }

    @Test
    void sentinelsWithAPasswordOfTheirOwnAreAskedWithRedisSentinelPassword() {
        try (EmbeddedRedis master = masterWithPassword("sentinel-own");
             TestSentinel sentinel = TestSentinel.start(master.port(), SENTINEL_PASSWORD, DATA_PASSWORD)) {
            try (RedisConnection redis = RedisConnection.open(endpoint(sentinel, DATA_PASSWORD, SENTINEL_PASSWORD))) {
                assertWorks(redis);
            }
            RedisEndpoint wrong = endpoint(sentinel, DATA_PASSWORD, null);
            Refusals.assertRefused(wrong, "WRONGPASS", DATA_PASSWORD, SENTINEL_PASSWORD);
            RedisEndpoint none = endpoint(sentinel, DATA_PASSWORD, "");
            Refusals.assertRefused(none, "NOAUTH", DATA_PASSWORD, SENTINEL_PASSWORD);

            Logger log = LoggerFactory.getLogger("sentinel-password-test");
            String prefix = "WARN Cannot connect to Redis at " + none + " (Cannot connect to a Redis Sentinel: [redis://"
                    + sentinel.address() + "?timeout=2s]: ";
            try (CapturedLog logged = CapturedLog.start(log.getName(), Level.INFO)) {
                AtomicInteger asked = new AtomicInteger();
                Backoff quick = new Backoff(Duration.ofMillis(1), Duration.ofMillis(2), RandomGenerator.getDefault());
                assertEquals(Optional.empty(), RedisConnection.openRetrying(none, new SimpleMeterRegistry(), log,
                        () -> asked.incrementAndGet() > Refusals.ATTEMPTS, quick));
                List<String> warnings = logged.lines();
                assertTrue(warnings.size() <= RedisConnection.REASONS_SAID, "each reason once: " + warnings);
                assertEquals(warnings.size(), new HashSet<>(warnings).size(), warnings.toString());
                assertTrue(warnings.stream().allMatch(line -> line.startsWith(prefix) && line.endsWith("); retrying")), warnings.toString());
                assertTrue(warnings.stream().noneMatch(line -> line.contains(DATA_PASSWORD)), warnings.toString());
                // Lettuce may name the connection's end instead of the answer; the answer is then said by a later attempt
                assertTrue(warnings.stream().anyMatch(line -> line.startsWith(prefix + "NOAUTH ")), "the warnings say why: " + warnings);
            }
        }
    }

    /**
     * Sentinels whose default user is off take REDIS_SENTINEL_USERNAME with its password; REDIS_USERNAME, the data nodes'
     * user, is not theirs.
     */
    @Test
    void sentinelsWithAUserOfTheirOwnAreAskedAsRedisSentinelUsername() {
        try (EmbeddedRedis master = masterWithPassword("sentinel-user");
             TestSentinel sentinel = TestSentinel.startWithUser(master.port(), "sc-sentinel", SENTINEL_PASSWORD, DATA_PASSWORD)) {
            RedisEndpoint asUser = endpoint(sentinel, TestSentinel.MASTER_NAME, DATA_PASSWORD, SENTINEL_PASSWORD, "sc-sentinel");
            assertTrue(asUser.toString().contains(" via redis://sc-sentinel@" + sentinel.address()), asUser.toString());
            try (RedisConnection redis = RedisConnection.open(asUser)) {
                assertWorks(redis);
            }
            Refusals.assertRefused(endpoint(sentinel, DATA_PASSWORD, SENTINEL_PASSWORD), "WRONGPASS", DATA_PASSWORD, SENTINEL_PASSWORD);
        }
    }

    /** Empty: no password. A Redis 7 Sentinel without one also takes the data nodes' (HELLO AUTH, a user without a password). */
    @Test
    void sentinelsWithoutAPasswordAreAskedWithoutOneWhenItIsEmptyAndTakeTheDefaultToo() {
        try (EmbeddedRedis master = masterWithPassword("sentinel-open");
             TestSentinel sentinel = TestSentinel.start(master.port(), null, DATA_PASSWORD)) {
            try (RedisConnection redis = RedisConnection.open(endpoint(sentinel, DATA_PASSWORD, ""))) {
                assertWorks(redis);
            }
            try (RedisConnection redis = RedisConnection.open(endpoint(sentinel, DATA_PASSWORD, null))) {
                assertWorks(redis);
            }
        }
    }

    @Test
    void aMasterNameNoSentinelMonitorsIsSaidSoWithTheSettingToCheck() {
        try (EmbeddedRedis master = masterWithPassword("sentinel-unknown-master");
             TestSentinel sentinel = TestSentinel.start(master.port(), null, DATA_PASSWORD)) {
            RedisEndpoint unknown = endpoint(sentinel, "nosuchmaster", DATA_PASSWORD, "");
            Logger log = LoggerFactory.getLogger("sentinel-master-test");
            try (CapturedLog logged = CapturedLog.start(log.getName(), Level.INFO)) {
                AtomicInteger asked = new AtomicInteger();
                Backoff quick = new Backoff(Duration.ofMillis(1), Duration.ofMillis(2), RandomGenerator.getDefault());
                assertEquals(Optional.empty(), RedisConnection.openRetrying(unknown, new SimpleMeterRegistry(), log,
                        () -> asked.incrementAndGet() > 2, quick));
                assertTrue(logged.lines().getFirst().endsWith("; the Sentinel asked (the first of REDIS_SENTINELS that answers) "
                        + "monitors no master named 'nosuchmaster': check REDIS_SENTINEL_MASTER against its 'sentinel monitor' lines; "
                        + "retrying"),
                        logged.lines().toString());
            }
        }
    }

    /** The Sentinels' silence says nothing of Redis: the connection's health ({@link RedisConnection#answers()}) is Redis's alone. */
    @Test
    void aSentinelThatStopsAnsweringLeavesAConnectionToAnsweringRedisAnswering() {
        try (EmbeddedRedis master = masterWithPassword("sentinel-paused");
             TestSentinel sentinel = TestSentinel.start(master.port(), null, DATA_PASSWORD);
             RedisConnection redis = RedisConnection.open(endpoint(sentinel, DATA_PASSWORD, ""))) {
            assertWorks(redis);
            sentinel.pause(); // the connection's look for a moved master now waits for an answer
            try {
                Awaitility.await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6)).until(redis::answers);
            } finally {
                sentinel.resume();
            }
            assertWorks(redis);
        }
    }

    /** The Redis master, asking its clients for {@link #DATA_PASSWORD}. */
    private static EmbeddedRedis masterWithPassword(String name) {
        EmbeddedRedis master = EmbeddedRedis.start(0, DataDirectory.temporary(name));
        try (RedisConnection open = RedisConnection.open(RedisEndpoint.of(master.host(), master.port()))) {
            open.sync().configSet("requirepass", DATA_PASSWORD);
        }
        return master;
    }

    /** The endpoint the settings name: the Sentinel, REDIS_PASSWORD and, unless null, REDIS_SENTINEL_PASSWORD. */
    private static RedisEndpoint endpoint(TestSentinel sentinel, String password, String sentinelPassword) {
        return endpoint(sentinel, TestSentinel.MASTER_NAME, password, sentinelPassword);
    }

    private static RedisEndpoint endpoint(TestSentinel sentinel, String master, String password, String sentinelPassword) {
        return endpoint(sentinel, master, password, sentinelPassword, null);
    }

    /** The endpoint the settings name, with REDIS_SENTINEL_USERNAME too unless {@code sentinelUser} is null. */
    private static RedisEndpoint endpoint(TestSentinel sentinel, String master, String password, String sentinelPassword,
            String sentinelUser) {
        Map<String, String> env = new LinkedHashMap<>(Map.of("REDIS_SENTINELS", sentinel.address(),
                "REDIS_SENTINEL_MASTER", master, "REDIS_PASSWORD", password, "REDIS_SOCKET_TIMEOUT", "2"));
        if (sentinelPassword != null) {
            env.put("REDIS_SENTINEL_PASSWORD", sentinelPassword);
        }
        if (sentinelUser != null) {
            env.put("REDIS_SENTINEL_USERNAME", sentinelUser);
        }
        return RedisEndpoint.from(Settings.load("crawler", new SettingsSources(null, env, Map.of())));
    }

    private static void assertWorks(RedisConnection redis) {
        assertEquals("OK", redis.sync().set("sentinel-password-test", "v"));
        assertEquals("v", redis.sync().get("sentinel-password-test"));
    }
}
