package org.scrapycluster.redismonitor;

import java.time.Duration;
import java.util.concurrent.Callable;

import org.scrapycluster.common.cli.CheckOption;
import org.scrapycluster.common.cli.ClusterCommand;
import org.scrapycluster.common.cli.SettingsOptions;
import org.scrapycluster.common.logging.Logging;
import org.scrapycluster.common.service.ServiceHost;
import org.scrapycluster.common.service.ShutdownSignal;
import org.scrapycluster.common.settings.Settings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code scrapy-cluster redis-monitor}: runs one Redis monitor against the configured Redis, Kafka
 * and ZooKeeper, with its metrics and health endpoint, until Ctrl-C or SIGTERM.
 */
@Command(name = "redis-monitor", mixinStandardHelpOptions = true,
        description = {"Run a Redis monitor: answers info, stop, expire, stats and zookeeper requests, returns expired leases"
                + " and announces finished crawls. Any number may run.", "Settings: config/redis-monitor.yml, docs/settings.md."})
public final class RedisMonitorCommand implements ClusterCommand, Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(RedisMonitorCommand.class);
    /** How long a stopping monitor has to finish the job in hand; orchestrators wait longer. */
    public static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(30);

    @Mixin
    SettingsOptions options;

    @Mixin
    CheckOption check;

    @Override
    public Integer call() {
        Settings settings = options.load("redis-monitor");
        if (check.asked()) {
            return check.run(settings, new RedisMonitorFactory());
        }
        Logging.configure(settings);
        try (ShutdownSignal signal = ShutdownSignal.install(SHUTDOWN_GRACE)) {
            try (ServiceHost host = ServiceHost.start(settings)) {
                host.run(new RedisMonitorFactory().create(host.context(settings)));
                try {
                    signal.await();
                    LOG.info("Closing Redis Monitor");
                } catch (InterruptedException e) {
                    LOG.info("Closing Redis Monitor (interrupted)");
                }
            }
        }
        return 0;
    }
}
