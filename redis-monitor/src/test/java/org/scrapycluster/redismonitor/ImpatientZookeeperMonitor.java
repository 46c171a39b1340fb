package org.scrapycluster.redismonitor;

import java.time.Duration;

import org.scrapycluster.common.zookeeper.ZooKeeperConnection;
import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.JobPluginFactory;
import org.scrapycluster.redismonitor.job.PluginContext;
import org.scrapycluster.redismonitor.zookeeper.ZookeeperMonitor;

/**
 * The built-in zookeeper plugin on a connection with short timeouts (a 4 s session, 2 s to connect, retries from
 * 0.1 s to 1 s), for the tests whose ZooKeeper goes away or stops answering: a job gives up after 4 s rather than
 * the 12 s of the defaults, and a client whose replies stop is dropped sooner. Named in {@code PLUGINS} in place of
 * the built-in one by {@link #PLUGINS}.
 */
public final class ImpatientZookeeperMonitor implements JobPluginFactory {

    /** The {@code PLUGINS} override that runs this plugin instead of the built-in one. */
    static final String PLUGINS = "{plugins.zookeeper_monitor.ZookeeperMonitor: null, " + ImpatientZookeeperMonitor.class.getName() + ": 500}";

    @Override
    public String name() {
        return ImpatientZookeeperMonitor.class.getName();
    }

    @Override
    public JobPlugin create(PluginContext context) {
        return new ZookeeperMonitor(context, new ZooKeeperConnection(context.settings().getString("ZOOKEEPER_HOSTS"),
                Duration.ofSeconds(4), Duration.ofSeconds(2), Duration.ofMillis(100), Duration.ofSeconds(1)));
    }
}
