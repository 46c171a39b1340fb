package org.scrapycluster.redismonitor;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.scrapycluster.common.jobs.JobKeys;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.redis.RedisEndpoint;
import org.scrapycluster.common.service.NodeIdentity;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.embedded.EmbeddedStack;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * One test's Redis monitors and what they work with: settings pointed at the shared stack (or at
 * private servers), a topic prefix and ZooKeeper path of its own, a Redis connection for building
 * state and writing jobs, and the outbound topic read from its beginning.
 */
final class MonitorFixture implements AutoCloseable {

    private final Map<String, String> values;
    private final Settings settings;
    private final RedisConnection redis;
    private OutboundAnswers answers;
    private final List<Running> monitors = new ArrayList<>();
    private final List<String> jobs = new ArrayList<>();

    /** A monitor in this test, with the registries it was given. */
    record Running(RedisMonitor monitor, HealthRegistry health, PrometheusMeterRegistry meters) {
    }

    private MonitorFixture(Map<String, String> values) {
        this.values = values;
        this.settings = Settings.load("redis-monitor", new SettingsSources(null, Map.of(), values));
        this.redis = RedisConnection.open(RedisEndpoint.from(settings));
    }

    /** Settings for the shared stack, with {@code overrides} (NAME, VALUE pairs) on top. */
    static MonitorFixture on(EmbeddedStack stack, String... overrides) {
        return on(stack.redisPort(), stack.kafkaBootstrap(), stack.zookeeperConnect(), overrides);
    }

    /** Settings for the given servers, with {@code overrides} (NAME, VALUE pairs) on top. */
    static MonitorFixture on(int redisPort, String kafka, String zookeeper, String... overrides) {
        String id = unique("t");
        Map<String, String> values = new LinkedHashMap<>();
        values.put("REDIS_HOST", "127.0.0.1");
        values.put("REDIS_PORT", Integer.toString(redisPort));
        values.put("KAFKA_HOSTS", kafka);
        values.put("ZOOKEEPER_HOSTS", zookeeper);
        values.put("KAFKA_TOPIC_PREFIX", id);
        values.put("ZOOKEEPER_ASSIGN_PATH", "/" + id + "/crawler/");
        values.put("METRICS_PORT", "-1");
        values.put("STATS_DUMP", "0");
        values.put("CRAWL_COMPLETE_QUIET_SECONDS", "1");
        for (int i = 0; i + 1 < overrides.length; i += 2) {
            values.put(overrides[i], overrides[i + 1]);
        }
        return new MonitorFixture(values);
    }

    /** A name no other test uses, free of ':' (spider ids, appids). */
    static String unique(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    Settings settings() {
        return settings;
    }

    RedisConnection redis() {
        return redis;
    }

    /** The outbound topic, read from its beginning; connected on first use (Kafka must be up then). */
    OutboundAnswers answers() {
        if (answers == null) {
            answers = new OutboundAnswers(values.get("KAFKA_HOSTS"), prefix() + ".outbound_firehose");
        }
        return answers;
    }

    String prefix() {
        return values.get("KAFKA_TOPIC_PREFIX");
    }

    /** The ZooKeeper node the monitors edit. */
    String zookeeperNode() {
        return values.get("ZOOKEEPER_ASSIGN_PATH") + settings.getString("ZOOKEEPER_ID");
    }

    /** The monitors started, in order. */
    List<Running> monitors() {
        return List.copyOf(monitors);
    }

    /** Starts a monitor on a fresh node identity. */
    Running startMonitor() {
        return startMonitor(NodeIdentity.create());
    }

    /** Starts a monitor as {@code node}. */
    Running startMonitor(NodeIdentity node) {
        return startMonitor(node, RunningMonitor.StopTimes.SERVICE);
    }

    /** Starts a monitor as {@code node}, whose stop's waits have {@code stopTimes}. */
    Running startMonitor(NodeIdentity node, RunningMonitor.StopTimes stopTimes) {
        return startMonitor(node, stopTimes, Clock.systemUTC());
    }

    /** Starts a monitor on a host whose clock is {@code hostClock}. */
    Running startMonitor(Clock hostClock) {
        return startMonitor(NodeIdentity.create(), RunningMonitor.StopTimes.SERVICE, hostClock);
    }

    private Running startMonitor(NodeIdentity node, RunningMonitor.StopTimes stopTimes, Clock hostClock) {
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        HealthRegistry health = new HealthRegistry();
        RedisMonitor monitor = new RedisMonitor(new ServiceContext(settings, meters, meters, health, node, hostClock), stopTimes);
        monitor.start();
        Running running = new Running(monitor, health, meters);
        monitors.add(running);
        return running;
    }

    /** Writes a job as our Kafka monitor does: the key and its waiting list, then its signal. */
    void post(String key, String value) {
        jobs.add(key);
        jobs.add(Keyspace.JOB_WAITING.fill(key));
        JobKeys.post(redis, key, value);
    }

    /** Writes a job as a Python Kafka monitor does: the key only, found by the scan. */
    void write(String key, String value) {
        jobs.add(key);
        redis.sync().set(key, value);
    }

    /** The epoch second now, for checking {@code server_time}. */
    static long now() {
        return Clock.systemUTC().instant().getEpochSecond();
    }

    /** Waits until a test's Redis key is gone (its job answered and deleted). */
    void awaitGone(String key) {
        awaitExists(key, false);
    }

    /** Waits until a Redis key exists. */
    void awaitPresent(String key) {
        awaitExists(key, true);
    }

    private void awaitExists(String key, boolean present) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while ((redis.sync().exists(key) > 0) != present) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(key + (present ? " is still missing" : " is still there") + " after a minute");
            }
            sleep(Duration.ofMillis(50));
        }
    }

    static void sleep(Duration time) {
        try {
            Thread.sleep(time);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Stops the monitors, then removes the jobs the test wrote that are left, so that no other test's monitor finds them. */
    @Override
    public void close() {
        monitors.forEach(running -> running.monitor().close());
        if (answers != null) {
            answers.close();
        }
        if (!jobs.isEmpty()) {
            redis.sync().del(jobs.toArray(String[]::new));
        }
        redis.close();
    }
}
