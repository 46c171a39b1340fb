package org.scrapycluster.redismonitor;

import java.time.Duration;

import org.scrapycluster.common.cli.ServiceCommand;

import picocli.CommandLine.Command;

/**
 * {@code scrapy-cluster redis-monitor}: runs one Redis monitor against the configured Redis, Kafka
 * and ZooKeeper, with its metrics and health endpoint, until Ctrl-C or SIGTERM.
 */
@Command(name = "redis-monitor", mixinStandardHelpOptions = true,
        description = {"Run a Redis monitor: answers info, stop, expire, stats and zookeeper requests, returns expired leases"
                + " and announces finished crawls. Any number may run.",
                "Settings: config/redis-monitor.yml; see docs/settings.md and docs/redis-monitor.md."})
public final class RedisMonitorCommand extends ServiceCommand {

    /** How long a stopping monitor has to finish the job in hand; orchestrators wait longer. */
    public static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(30);

    public RedisMonitorCommand() {
        super(new RedisMonitorFactory(), SHUTDOWN_GRACE);
    }
}
