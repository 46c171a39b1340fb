package org.scrapycluster.common.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.scrapycluster.common.metrics.ProcessMetrics;
import org.scrapycluster.common.service.Backoff;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.FreePorts;
import org.scrapycluster.embedded.junit.CapturedLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;

class RedisConnectionTest {

    private static final int LATENCY_BUCKETS_PER_COMMAND = 20;

    @Test
    void knowsARedisOf6OrNewerFromItsVersion() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("redis-version"));
             RedisConnection redis = TestRedis.connect(server)) {
            assertTrue(redis.isRedis6OrNewer(), "the tests' Redis is 7");
        }
        assertTrue(RedisConnection.isRedis6OrNewer("# Server\r\nredis_version:6.0.0\r\nredis_mode:standalone\r\n"));
        assertTrue(RedisConnection.isRedis6OrNewer("redis_version:10.2.1\r\n"));
        assertFalse(RedisConnection.isRedis6OrNewer("# Server\r\nredis_version:5.0.14\r\n"));
        assertFalse(RedisConnection.isRedis6OrNewer("# Server\r\nredis_mode:standalone\r\n"), "no version: as the oldest");
        assertFalse(RedisConnection.isRedis6OrNewer("redis_version:unknown\r\n"));
    }

    @Test
    void failsFastWhileRedisIsAwayAndReconnectsByItself() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("redis-outage"));
             RedisConnection redis = TestRedis.connect(server)) {
            redis.sync().set("k", "v");
            server.stop();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !redis.isConnected());
            RedisException refused = assertThrows(RedisException.class, () -> redis.sync().get("k"));
            assertFalse(refused instanceof RedisCommandTimeoutException, "rejected at once instead of waiting for the timeout");
            refused = assertThrows(RedisException.class, () -> redis.await(redis.async().get("k")));
            assertFalse(refused instanceof RedisCommandTimeoutException, "rejected at once instead of waiting for the timeout");

            server.restart();
            Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .until(() -> redis.sync().set("k", "back").equals("OK"));
            assertEquals("back", redis.sync().get("k"));
        }
    }

    @Test
    void closingAConnectionLeavesTheSharedThreadsToTheOthers() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("redis-shared"))) {
            RedisEndpoint endpoint = RedisEndpoint.of(server.host(), server.port());
            RedisConnection closed = RedisConnection.open(endpoint);
            try (RedisConnection open = RedisConnection.open(endpoint, new SimpleMeterRegistry())) {
                assertEquals("PONG", closed.sync().ping());
                closed.close();
                assertEquals("PONG", open.sync().ping());
                assertEquals("PONG", open.await(open.async().ping()), "its event loop and its timeouts' timer still run");
            }
            try (RedisConnection next = RedisConnection.open(endpoint)) {
                assertEquals("PONG", next.sync().ping());
            }
        }
    }

    /**
     * A connection attempt refused leaves its handshake's timeout on the process's timer, which fires once the timeout
     * has passed; with no other connection open meanwhile it must still find its event loop running, or Netty logs
     * "Failed to submit a listener notification task" at ERROR (a service waiting for a Redis that refuses connections
     * logged it after each attempt).
     */
    @Test
    void aRefusedAttemptLeavesNoErrorBehindOnceItsTimeoutHasPassed() throws InterruptedException {
        Duration timeout = Duration.ofSeconds(1);
        try (CapturedLog netty = CapturedLog.start("io.netty", Level.WARN)) {
            RedisEndpoint refusing = new RedisEndpoint("127.0.0.1", FreePorts.pick(), 0, null, false, timeout);
            assertThrows(RedisConnectionException.class, () -> RedisConnection.open(refusing));
            Thread.sleep(timeout.multipliedBy(3)); // past the attempt's timeout: on success there is nothing to wait for
            assertEquals(List.of(), netty.lines());
        }
    }

    /** A hung Redis keeps the connection open: it answers no command, and the connection says so until one is answered. */
    @Test
    void aRedisThatStopsAnsweringIsToldApartFromAConnectedOne() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("redis-hung"));
             RedisConnection redis = TestRedis.connect(server)) {
            redis.sync().set("k", "v");
            assertTrue(redis.answers());
            server.freeze();
            try {
                assertThrows(RedisCommandTimeoutException.class, () -> redis.sync().get("k"));
                assertTrue(redis.isConnected(), "the connection is still open");
                assertFalse(redis.answers());
            } finally {
                server.thaw();
            }
            assertEquals("v", redis.sync().get("k"));
            assertTrue(redis.answers());
        }
    }

    /**
     * The dashboard's p99 of Redis command latency is Prometheus's {@code histogram_quantile} over the completion buckets
     * (docs/operations.md, Metrics). At most {@value #LATENCY_BUCKETS_PER_COMMAND} bucket series per command, across both
     * of Lettuce's timers: a ladder of boundaries at most 2.5 times apart, from 100 µs (a healthy Redis answers in less
     * than a millisecond) to 10 s (the default {@code REDIS_SOCKET_TIMEOUT}), needs 16 and {@code +Inf}; the
     * first-response timer, which no query reads, has none. Percentiles kept in the process would cost every command and
     * never be published.
     */
    @Test
    void commandLatencyIsAFewCompletionBucketsSpanningRedisLatencies() {
        try (ProcessMetrics process = new ProcessMetrics();
             EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("redis-metrics"));
             RedisConnection redis = RedisConnection.open(RedisEndpoint.of(server.host(), server.port()), process.forService("crawler"))) {
            redis.sync().ping();
            List<String> ping = process.registry().scrape().lines()
                    .filter(line -> line.startsWith("lettuce_command_") && line.contains("command=\"PING\"")).toList();
            String scraped = String.join("\n", ping);
            assertTrue(ping.stream().filter(line -> line.contains("_bucket{")).count() <= LATENCY_BUCKETS_PER_COMMAND, scraped);
            assertEquals(List.of(), bucketBounds(ping, "lettuce_command_firstresponse_seconds"), scraped);

            List<Double> completion = bucketBounds(ping, "lettuce_command_completion_seconds");
            assertTrue(completion.getFirst() <= 0.0001, scraped);
            assertEquals(Double.POSITIVE_INFINITY, completion.getLast(), scraped);
            assertTrue(completion.get(completion.size() - 2) >= 10, scraped);
            for (int i = 1; i < completion.size() - 1; i++) {
                assertTrue(completion.get(i) <= 2.5 * completion.get(i - 1) + 1e-12, scraped);
            }
            assertTrue(ping.contains("lettuce_command_completion_seconds_bucket{command=\"PING\",local=\"local:any\",remote=\""
                    + "127.0.0.1/127.0.0.1:" + server.port() + "\",service=\"crawler\",le=\"+Inf\"} 1"), scraped);

            for (String name : List.of("lettuce.command.completion", "lettuce.command.firstresponse")) {
                HistogramSnapshot latency = process.registry().get(name).tag("command", "PING").timer().takeSnapshot();
                assertEquals(1, latency.count(), name);
                assertEquals(0, latency.percentileValues().length, name);
            }
        }
    }

    /** The upper bounds ({@code le}) of the buckets of {@code metric} in {@code lines}, in order. */
    private static List<Double> bucketBounds(List<String> lines, String metric) {
        return lines.stream().filter(line -> line.startsWith(metric + "_bucket{"))
                .map(line -> line.substring(line.indexOf("le=\"") + 4, line.indexOf("\"}")))
                .map(le -> le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le)).toList();
    }

    @Test
    void saysClearlyWhenRedisCannotBeReachedAtStart() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("redis-absent"))) {
            server.stop();
            assertThrows(RedisConnectionException.class, () -> TestRedis.connect(server));
        }
    }

    @Test
    void endpointNeverPrintsThePassword() {
        RedisEndpoint endpoint = new RedisEndpoint("redis.example", 6380, 2, "secret", true, Duration.ofSeconds(3));
        assertEquals("rediss://redis.example:6380/2", endpoint.toString());
        assertFalse(endpoint.toString().contains("secret"));
        assertThrows(IllegalArgumentException.class, () -> RedisEndpoint.of("h", 0));
        assertNull(new RedisEndpoint("h", 1, 0, "", false, Duration.ofSeconds(1)).password());
    }

    @Test
    void endpointFromAServicesSettings() {
        Settings settings = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(),
                Map.of("REDIS_HOST", "redis.internal", "REDIS_PORT", "6380", "REDIS_DB", "3", "REDIS_PASSWORD", "pw",
                        "REDIS_SOCKET_TIMEOUT", "2")));
        assertEquals(new RedisEndpoint("redis.internal", 6380, 3, "pw", false, Duration.ofSeconds(2)), RedisEndpoint.from(settings));

        Settings badPort = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(), Map.of("REDIS_PORT", "70000")));
        SettingsException e = assertThrows(SettingsException.class, () -> RedisEndpoint.from(badPort));
        assertEquals("The Redis settings of the kafka-monitor cannot be used: Redis port must be 1-65535, got 70000", e.getMessage());

        Settings negative = Settings.load("kafka-monitor", new SettingsSources(null, Map.of(), Map.of("REDIS_SOCKET_TIMEOUT", "-3")));
        assertEquals("The Redis settings of the kafka-monitor cannot be used: Redis timeout (REDIS_SOCKET_TIMEOUT) must be more than "
                + "0 seconds, got -3.0", assertThrows(SettingsException.class, () -> RedisEndpoint.from(negative)).getMessage());
    }

    @Test
    void sentinelsFromSettingsReplaceHostAndPort() {
        Settings settings = Settings.load("crawler", new SettingsSources(null, Map.of(),
                Map.of("REDIS_SENTINELS", "s1.redis:26379, s2.redis:26380", "REDIS_SENTINEL_MASTER", "main")));
        RedisEndpoint endpoint = RedisEndpoint.from(settings);
        assertEquals(List.of(new RedisEndpoint.Sentinel("s1.redis", 26379), new RedisEndpoint.Sentinel("s2.redis", 26380)),
                endpoint.sentinels());
        assertEquals("master main via redis://s1.redis:26379,s2.redis:26380/0", endpoint.toString());
        RedisURI uri = RedisConnection.uri(endpoint);
        assertEquals("main", uri.getSentinelMasterId());
        assertEquals(2, uri.getSentinels().size());

        Settings noMaster = Settings.load("crawler", new SettingsSources(null, Map.of(), Map.of("REDIS_SENTINELS", "s1.redis:26379")));
        SettingsException e = assertThrows(SettingsException.class, () -> RedisEndpoint.from(noMaster));
        assertTrue(e.getMessage().contains("REDIS_SENTINEL_MASTER must name the master"), e.getMessage());
        Settings badAddress = Settings.load("crawler", new SettingsSources(null, Map.of(),
                Map.of("REDIS_SENTINELS", "s1.redis", "REDIS_SENTINEL_MASTER", "main")));
        assertTrue(assertThrows(SettingsException.class, () -> RedisEndpoint.from(badAddress)).getMessage()
                .endsWith("a Sentinel is host:port, got 's1.redis'"));
    }

    /**
     * Lettuce gives the builder's password to the data nodes only: each Sentinel gets REDIS_SENTINEL_PASSWORD, by default
     * REDIS_PASSWORD, none when it is empty ({@link SentinelPasswordTest} with real Sentinels); no log shows either.
     */
    @Test
    void eachSentinelGetsTheSentinelPasswordByDefaultTheRedisPassword() {
        Map<String, String> env = Map.of("REDIS_SENTINELS", "s1.redis:26379,s2.redis:26380", "REDIS_SENTINEL_MASTER", "main",
                "REDIS_PASSWORD", "data-pw");
        RedisEndpoint same = RedisEndpoint.from(Settings.load("crawler", new SettingsSources(null, env, Map.of())));
        assertEquals("data-pw", same.sentinelPassword());
        assertSentinelPasswords("data-pw", RedisConnection.uri(same));

        Map<String, String> own = new HashMap<>(env);
        own.put("REDIS_SENTINEL_PASSWORD", "sentinel-pw");
        RedisEndpoint separate = RedisEndpoint.from(Settings.load("crawler", new SettingsSources(null, own, Map.of())));
        assertEquals("sentinel-pw", separate.sentinelPassword());
        assertSentinelPasswords("sentinel-pw", RedisConnection.uri(separate));
        assertEquals("master main via redis://s1.redis:26379,s2.redis:26380/0", separate.toString());

        Map<String, String> none = new HashMap<>(env);
        none.put("REDIS_SENTINEL_PASSWORD", "");
        RedisEndpoint open = RedisEndpoint.from(Settings.load("crawler", new SettingsSources(null, none, Map.of())));
        assertNull(open.sentinelPassword());
        assertSentinelPasswords(null, RedisConnection.uri(open));
        RedisEndpoint fromFlag = RedisEndpoint.from(Settings.load("crawler", new SettingsSources(null, Map.of(),
                Map.of("REDIS_SENTINELS", "s1.redis:26379", "REDIS_SENTINEL_MASTER", "main", "REDIS_PASSWORD", "data-pw",
                        "REDIS_SENTINEL_PASSWORD", ""))));
        assertNull(fromFlag.sentinelPassword(), "--set REDIS_SENTINEL_PASSWORD= too");

        assertNull(RedisEndpoint.from(Settings.load("crawler", new SettingsSources(null, Map.of("REDIS_PASSWORD", "data-pw"), Map.of())))
                .sentinelPassword(), "none without Sentinels");
    }

    /** The data nodes' password is data-pw, every Sentinel's {@code expected}. */
    private static void assertSentinelPasswords(String expected, RedisURI uri) {
        assertArrayEquals("data-pw".toCharArray(), password(uri));
        for (RedisURI sentinel : uri.getSentinels()) {
            assertArrayEquals(expected == null ? null : expected.toCharArray(), password(sentinel), sentinel.toString());
        }
    }

    private static char[] password(RedisURI uri) {
        RedisCredentials credentials = uri.getCredentialsProvider().resolveCredentials().block();
        return credentials == null || !credentials.hasPassword() ? null : credentials.getPassword();
    }

    @Test
    void openingRetriesUntilRedisIsUpAndSaysEachReasonOnceThenThatItConnected() throws Exception {
        Logger log = LoggerFactory.getLogger("redis-connection-test");
        try (CapturedLog logged = CapturedLog.start(log.getName(), Level.INFO);
             EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("redis-late"))) {
            server.stop();
            RedisEndpoint endpoint = RedisEndpoint.of("127.0.0.1", server.port());
            CompletableFuture<Optional<RedisConnection>> opening = CompletableFuture.supplyAsync(
                    () -> RedisConnection.openRetrying(endpoint, new SimpleMeterRegistry(), log, () -> false));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !logged.events().isEmpty());
            Thread.sleep(2_000);
            assertFalse(opening.isDone(), "no Redis, no connection");
            server.restart();
            try (RedisConnection redis = opening.get(60, TimeUnit.SECONDS).orElseThrow()) {
                assertEquals("PONG", redis.sync().ping());
            }
            List<String> lines = logged.lines();
            List<String> warnings = lines.subList(0, lines.size() - 1);
            assertEquals("INFO Connected to Redis at " + endpoint, lines.getLast(), lines.toString());
            assertTrue(warnings.getFirst().startsWith("WARN Cannot connect to Redis at " + endpoint), warnings.getFirst());
            // each reason once, not once per attempt: the refused connection, and perhaps what Redis said as it came back
            assertTrue(warnings.size() <= RedisConnection.REASONS_SAID && warnings.size() == new HashSet<>(warnings).size()
                    && warnings.stream().allMatch(line -> line.startsWith("WARN Cannot connect to Redis at " + endpoint)), lines.toString());
        }
    }

    @Test
    void aLongOutageIsSaidAgainEveryFewAttemptsWithItsReason() {
        Logger log = LoggerFactory.getLogger("redis-connection-test");
        try (CapturedLog logged = CapturedLog.start(log.getName(), Level.INFO);
             EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("redis-gone"))) {
            server.stop();
            RedisEndpoint endpoint = RedisEndpoint.of("127.0.0.1", server.port());
            AtomicInteger asked = new AtomicInteger();
            Backoff quick = new Backoff(Duration.ofNanos(1), Duration.ofNanos(1), RandomGenerator.getDefault());
            assertEquals(Optional.empty(), RedisConnection.openRetrying(endpoint, new SimpleMeterRegistry(), log,
                    () -> asked.incrementAndGet() > 2 * RedisConnection.STILL_SAID_EVERY, quick));
            List<String> stillSaid = logged.lines().stream().filter(line -> line.startsWith("WARN Still cannot connect")).toList();
            assertEquals(2, stillSaid.size(), logged.lines().toString());
            String first = stillSaid.getFirst();
            assertTrue(first.startsWith("WARN Still cannot connect to Redis at " + endpoint + " after " + RedisConnection.STILL_SAID_EVERY
                    + " attempts (") && first.endsWith("; retrying"), first);
        }
    }

    @Test
    void openingGivesUpWhenStopped() {
        try (EmbeddedRedis server = EmbeddedRedis.start(0, DataDirectory.temporary("redis-never"))) {
            server.stop();
            AtomicInteger asked = new AtomicInteger();
            assertEquals(Optional.empty(), RedisConnection.openRetrying(RedisEndpoint.of("127.0.0.1", server.port()), new SimpleMeterRegistry(),
                    (Logger) LoggerFactory.getLogger("redis-connection-test"), () -> asked.incrementAndGet() > 2));
            assertEquals(3, asked.get(), "asked before each attempt");
        }
    }
}
