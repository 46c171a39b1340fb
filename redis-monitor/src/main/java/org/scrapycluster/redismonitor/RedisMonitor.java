package org.scrapycluster.redismonitor;

import java.util.List;

import org.scrapycluster.common.kafka.KafkaClients;
import org.scrapycluster.common.metrics.Health;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.redis.RedisClock;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.service.Service;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.zookeeper.ConfigNodePath;
import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.redismonitor.outbound.OutboundPublisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Redis monitor service (docs/compatibility.md §3): runs the info, stop, expire, stats and zookeeper
 * jobs, picking signalled jobs up at once and scanning for the others; returns expired leases to
 * their queues; announces finished crawls; counts, beats and dumps its statistics. Any number may
 * run against one Redis; each job is answered once.
 *
 * <p>Settings are checked when the service is built. Starting does not wait for Redis: the
 * service connects in the background, retrying with back-off (the original exited when Redis was
 * down at start), and after that rides out outages of Redis, Kafka and ZooKeeper. Its health
 * checks are {@code redis}, {@code kafka} and (with the zookeeper plugin) {@code zookeeper}.
 */
public final class RedisMonitor implements Service {

    private static final Logger LOG = LoggerFactory.getLogger(RedisMonitor.class);
    private static final long STOP_WAIT_MILLIS = 15_000;

    private final ServiceContext context;
    private final MonitorOptions options;
    private final List<PluginLoader.PluginSpec> plugins;
    /**
     * Redis's time, which every host shares, for when a job is due (a crawl's expiry), the answers' {@code server_time}
     * and records (the broker refuses a record stamped an hour ahead of its own) and the statistics' buckets (one host's
     * clock ahead would trim the others' as old).
     */
    private final RedisClock clock;
    private final OutboundPublisher outbound;
    private final RunningMonitor.StopTimes stopTimes;
    private final Thread starter;
    private volatile boolean closed;
    private volatile RedisConnection redis;
    /** Why the monitor could not start once Redis was connected; null while it has not failed to. */
    private volatile String startFailure;
    private RunningMonitor running;

    /**
     * @throws org.scrapycluster.common.settings.SettingsException when a setting cannot be used
     */
    public RedisMonitor(ServiceContext context) {
        this(context, RunningMonitor.StopTimes.SERVICE);
    }

    /**
     * Refuses the settings a monitor could not be built with, as its constructor would: every value in range, its
     * plugins' classes found and ranked (they are made as it starts); connects to nothing.
     *
     * @throws org.scrapycluster.common.settings.SettingsException naming the setting
     */
    public static void check(Settings settings) {
        MonitorOptions.from(settings);
        PluginLoader.resolve(settings);
        OutboundPublisher.check(settings);
        ConfigNodePath.of(settings); // the zookeeper plugin's node
        ZooKeeperConnection.of(settings); // and its ZooKeeper: the address, the digest, the TLS files
    }

    /** A monitor whose stop's waits have {@code stopTimes} ({@link RunningMonitor#close}). */
    RedisMonitor(ServiceContext context, RunningMonitor.StopTimes stopTimes) {
        this.context = context;
        this.stopTimes = stopTimes;
        this.options = MonitorOptions.from(context.settings());
        this.plugins = PluginLoader.resolve(context.settings());
        // the publisher is made once a broker of KAFKA_HOSTS resolves: not ready meanwhile
        KafkaClients.checkWaitingForBrokers(context.health());
        this.clock = new RedisClock(context.clock());
        this.outbound = OutboundPublisher.create(context.settings(), clock);
        this.starter = Thread.ofPlatform().name("redis-monitor-start").daemon().unstarted(this::connectAndRun);
        context.health().register("redis", () -> {
            RedisConnection connection = redis;
            if (startFailure != null) {
                return Health.down("the Redis monitor could not start: " + startFailure);
            }
            if (connection == null) {
                return Health.down("connecting to " + options.redis());
            }
            return connection.answers() ? Health.up() : Health.down("no answer from " + options.redis());
        });
        context.health().register("kafka", outbound::health);
        context.health().register("start", HealthRegistry.Kind.LIVENESS,
                () -> startFailure == null ? Health.up() : Health.down("could not start: " + startFailure));
    }

    @Override
    public String name() {
        return "redis-monitor";
    }

    @Override
    public void start() {
        starter.start();
    }

    private void connectAndRun() {
        RedisConnection connection = RedisConnection.openRetrying(options.redis(), context.meters(), LOG, () -> closed).orElse(null);
        if (connection == null) {
            return;
        }
        synchronized (this) {
            if (closed) {
                connection.close();
                return;
            }
            running = new RunningMonitor(context, options, connection, clock, outbound, plugins, stopTimes);
            try {
                running.start();
                redis = connection;
            } catch (RuntimeException e) {
                startFailure = e.getMessage() != null ? e.getMessage() : e.toString();
                LOG.atError().setCause(e).log("The Redis monitor could not start: " + startFailure
                        + "; it stays down (its live and ready checks say so) until it is restarted");
                running = null;
            }
        }
    }

    /** Stops the workers (the job in progress is finished), then closes everything. */
    @Override
    public void close() {
        closed = true;
        starter.interrupt();
        try {
            starter.join(STOP_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (running != null) {
                running.close();
                running = null;
            }
        }
        outbound.close();
        clock.close();
    }
}
