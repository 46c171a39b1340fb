package org.scrapycluster.redismonitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.embedded.DataDirectory;
import org.scrapycluster.embedded.EmbeddedRedis;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.redismonitor.job.JobFailures;

import io.micrometer.core.instrument.Counter;

/**
 * The job loop of docs/compatibility.md §3.2 with real monitors: several monitors share jobs and answer
 * each once, a failing job is retried and then given up with an error answer, a locked job waits
 * for its lock, and user plugins named by class run beside the built-in ones.
 */
@ExtendWith(SharedStack.class)
class JobLoopTest {

    private static final String USER_PLUGINS = "{" + FailingPlugin.Factory.class.getName() + ": 50, " + InfoTestPlugin.Factory.class.getName() + ": 60}";

    /**
     * A Redis of the class's own: a job retried, or freed by its lock, is found by the fallback scan, paced by how long a
     * pass over the keyspace takes and held cluster-wide for as long (jobs:scan_turn:<plugins>), and the shared server holds every
     * other test's keys and turns.
     */
    private static EmbeddedRedis redis;

    @BeforeAll
    static void startRedis() {
        redis = EmbeddedRedis.start(0, DataDirectory.temporary("job-loop-redis"));
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    /** A fixture on the shared Kafka and ZooKeeper and this class's Redis, with {@code overrides} (NAME, VALUE pairs). */
    private static MonitorFixture on(EmbeddedStack stack, String... overrides) {
        return MonitorFixture.on(redis.port(), stack.kafkaBootstrap(), stack.zookeeperConnect(), overrides);
    }

    @Test
    void twoMonitorsAnswerEveryJobExactlyOnce(EmbeddedStack stack) {
        int jobs = 300;
        try (MonitorFixture fixture = on(stack)) {
            MonitorFixture.Running first = fixture.startMonitor();
            MonitorFixture.Running second = fixture.startMonitor();
            String spider = MonitorFixture.unique("spider");
            for (int i = 0; i < jobs; i++) {
                String key = Keyspace.INFO_CRAWL.fill(spider, "app" + i, "c" + i);
                if (i % 2 == 0) {
                    fixture.post(key, "uuid-" + i);
                } else {
                    fixture.write(key, "uuid-" + i);
                }
            }
            fixture.answers().awaitCount(jobs);
            // a job's key is deleted and its answer counted after Kafka has taken the answer
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
                assertEquals(jobs, answered(first) + answered(second));
                for (int i = 0; i < jobs; i++) {
                    assertEquals(0, fixture.redis().sync().exists(Keyspace.INFO_CRAWL.fill(spider, "app" + i, "c" + i)));
                }
            });
            // every job done and gone: the topic holds all they answered
            List<JsonNode> answers = fixture.answers().readToEnd();
            Map<String, Long> perUuid = answers.stream().collect(Collectors.groupingBy(answer -> answer.path("uuid").asText(),
                    Collectors.counting()));
            assertEquals(jobs, perUuid.size(), "every job is answered");
            assertTrue(perUuid.values().stream().allMatch(count -> count == 1), "a job was answered twice: " + perUuid);
            assertEquals(jobs, answered(first) + answered(second), "no job answered since");
        }
    }

    @Test
    void aJobGivenUpWhileKafkaIsAwayStaysUntilItsRequesterIsTold(EmbeddedStack stack) {
        try (MonitorFixture cutOff = on(stack, "PLUGINS", USER_PLUGINS, "RETRY_FAILURES_MAX", "2",
                "KAFKA_HOSTS", "127.0.0.1:9", "KAFKA_SEND_TIMEOUT", "1");
                MonitorFixture fixture = on(stack, "PLUGINS", USER_PLUGINS, "RETRY_FAILURES_MAX", "2")) {
            String key = "failtest:" + MonitorFixture.unique("app") + ":job";
            cutOff.startMonitor();
            fixture.post(key, "uuid-given-up");
            Awaitility.await().atMost(Duration.ofSeconds(60))
                    .until(() -> Integer.parseInt(Objects.requireNonNullElse(fixture.redis().sync().get(FailingPlugin.attemptsKey(key)), "0")) >= 4);
            assertEquals(1, fixture.redis().sync().exists(key), "given up, but its error answer could not be sent: the job stays");

            fixture.startMonitor();
            JsonNode answer = fixture.answers().awaitUuid("uuid-given-up");
            assertEquals("Could not process the request within the failure limit: boom", answer.path("error").asText());
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> fixture.redis().sync().exists(key) == 0);
        }
    }

    @Test
    void aFailingJobIsRetriedThenGivenUpWithAnErrorAnswer(EmbeddedStack stack) {
        try (MonitorFixture fixture = on(stack, "PLUGINS", USER_PLUGINS, "RETRY_FAILURES_MAX", "2")) {
            fixture.startMonitor();
            String appid = MonitorFixture.unique("app");
            String key = "failtest:" + appid + ":job";
            fixture.post(key, "uuid-failing");
            JsonNode answer = fixture.answers().awaitUuid("uuid-failing");
            assertEquals(appid, answer.path("appid").asText());
            assertEquals("Could not process the request within the failure limit: boom", answer.path("error").asText());
            assertEquals("3", fixture.redis().sync().get(FailingPlugin.attemptsKey(key)), "two failures counted, given up at the third");
            // the answer is published first, then the job's keys are deleted
            Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertEquals(0, fixture.redis().sync().exists(key));
                assertEquals(0, fixture.redis().sync().exists(JobFailures.key(key)));
            });
        }
    }

    @Test
    void withoutRetryCountingAFailingJobIsTriedAgainAndAgain(EmbeddedStack stack) {
        try (MonitorFixture fixture = on(stack, "PLUGINS", USER_PLUGINS, "RETRY_FAILURES", "false")) {
            fixture.startMonitor();
            String key = "failtest:" + MonitorFixture.unique("app") + ":job";
            fixture.write(key, "uuid");
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (attempts(fixture, key) < 6 && System.nanoTime() < deadline) {
                MonitorFixture.sleep(Duration.ofMillis(50));
            }
            assertTrue(attempts(fixture, key) >= 6);
            assertEquals("uuid", fixture.redis().sync().get(key));
            assertEquals(0, fixture.redis().sync().exists(JobFailures.key(key)));
            fixture.redis().sync().del(key);
        }
    }

    @Test
    void aJobWaitsWhileAnotherHolderHasItsLock(EmbeddedStack stack) {
        try (MonitorFixture fixture = on(stack)) {
            fixture.startMonitor();
            String key = Keyspace.INFO_CRAWL.fill(MonitorFixture.unique("spider"), "app", "c1");
            fixture.redis().sync().set(Keyspace.lock(key), "another-monitor");
            fixture.post(key, "uuid-locked");
            fixture.answers().readFor(Duration.ofSeconds(1));
            assertEquals("uuid-locked", fixture.redis().sync().get(key), "not handled while locked");
            assertTrue(fixture.answers().answers().isEmpty());
            fixture.redis().sync().del(Keyspace.lock(key));
            fixture.answers().awaitUuid("uuid-locked");
            fixture.awaitGone(key);
        }
    }

    @Test
    void runsUserPluginsNamedByClass(EmbeddedStack stack) {
        // a lock that is not released outlives the wait below instead of expiring during it
        try (MonitorFixture fixture = on(stack, "PLUGINS", USER_PLUGINS, "REDIS_LOCK_EXPIRATION", "300")) {
            fixture.startMonitor();
            String key = "info-test:" + MonitorFixture.unique("k");
            String value = MonitorFixture.unique("v");
            fixture.post(key, value);
            JsonNode answer = fixture.answers().await(message -> value.equals(message.path("info-test").asText()));
            assertEquals("someapp", answer.path("appid").asText());
            fixture.awaitGone(key);
            // the lock is released after the key is deleted
            fixture.awaitGone(Keyspace.lock(key));
        }
    }

    @Test
    void everyRequestOfOneScopeIsAnsweredOnceWhileTheJobIsRewritten(EmbeddedStack stack) {
        try (MonitorFixture fixture = on(stack)) {
            fixture.startMonitor();
            String key = Keyspace.STATS_REQUEST.fill("rest", MonitorFixture.unique("app"));
            Map<String, Integer> answered = new HashMap<>();
            for (int i = 0; i < 20; i++) {
                fixture.post(key, "uuid-" + i);
            }
            fixture.answers().awaitCount(20);
            fixture.awaitGone(key);
            fixture.answers().readToEnd().forEach(answer -> answered.merge(answer.path("uuid").asText(), 1, Integer::sum));
            assertEquals(20, answered.size(), "every request is answered: " + answered);
            assertTrue(answered.values().stream().allMatch(count -> count == 1), answered.toString());
            assertEquals(0, fixture.redis().sync().exists(Keyspace.JOB_WAITING.fill(key)));
        }
    }

    @Test
    void alsoAnswersOnTheAppsOwnTopic(EmbeddedStack stack) {
        String appid = MonitorFixture.unique("app");
        try (MonitorFixture fixture = on(stack, "KAFKA_APPID_TOPICS", "true");
             OutboundAnswers appTopic = new OutboundAnswers(stack.kafkaBootstrap(), fixture.prefix() + ".outbound_" + appid)) {
            fixture.startMonitor();
            String uuid = MonitorFixture.unique("uuid");
            fixture.post(Keyspace.INFO_APP.fill(MonitorFixture.unique("spider"), appid), uuid);
            assertEquals(fixture.answers().awaitUuid(uuid), appTopic.awaitUuid(uuid));
        }
    }

    @Test
    void anAppTopicKafkaDoesNotCreateCostsOnlyTheAnswersCopyOnIt(EmbeddedStack stack) {
        String appid = MonitorFixture.unique("app");
        try (MonitorFixture fixture = on(stack, "KAFKA_APPID_TOPICS", "true", "KAFKA_SEND_TIMEOUT", "2");
             // a topic whose name collides with the app's topic ('.' and '_' are one to Kafka), so that the broker
             // cannot create it, as on a cluster without automatic topic creation
             OutboundAnswers collision = new OutboundAnswers(stack.kafkaBootstrap(), fixture.prefix() + "_outbound_" + appid)) {
            fixture.startMonitor();
            String spider = MonitorFixture.unique("spider");
            String key = Keyspace.INFO_APP.fill(spider, appid);
            fixture.post(key, "uuid-app-topic");

            fixture.answers().awaitUuid("uuid-app-topic");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> fixture.redis().sync().exists(key) == 0);
            long answers = fixture.answers().readToEnd().stream()
                    .filter(answer -> answer.path("uuid").asText().equals("uuid-app-topic")).count();
            assertEquals(1, answers, "the job is answered once, not again for its copy on the app's topic");
        }
    }

    private static long attempts(MonitorFixture fixture, String key) {
        String attempts = fixture.redis().sync().get(FailingPlugin.attemptsKey(key));
        return attempts == null ? 0 : Long.parseLong(attempts);
    }

    private static long answered(MonitorFixture.Running monitor) {
        Counter counter = monitor.meters().find("redis.monitor.jobs").tag("outcome", "answered").counter();
        return counter == null ? 0 : (long) counter.count();
    }
}
