package org.scrapycluster.redismonitor;

import java.util.function.Function;

import org.scrapycluster.redismonitor.crawl.ExpireMonitor;
import org.scrapycluster.redismonitor.crawl.StopMonitor;
import org.scrapycluster.redismonitor.info.InfoMonitor;
import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.JobPluginFactory;
import org.scrapycluster.redismonitor.job.PluginContext;
import org.scrapycluster.redismonitor.stats.StatsMonitor;
import org.scrapycluster.redismonitor.zookeeper.ZookeeperMonitor;

/**
 * The factories of the built-in plugins, registered as every plugin is and named as the original's
 * settings name them (docs/redis-monitor.md).
 */
public abstract class BuiltInPlugins implements JobPluginFactory {

    private final String name;
    private final Function<PluginContext, JobPlugin> constructor;

    private BuiltInPlugins(String name, Function<PluginContext, JobPlugin> constructor) {
        this.name = name;
        this.constructor = constructor;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final JobPlugin create(PluginContext context) {
        return constructor.apply(context);
    }

    /** {@code plugins.info_monitor.InfoMonitor}. */
    public static final class Info extends BuiltInPlugins {
        public Info() {
            super("plugins.info_monitor.InfoMonitor", InfoMonitor::new);
        }
    }

    /** {@code plugins.stop_monitor.StopMonitor}. */
    public static final class Stop extends BuiltInPlugins {
        public Stop() {
            super("plugins.stop_monitor.StopMonitor", StopMonitor::new);
        }
    }

    /** {@code plugins.expire_monitor.ExpireMonitor}. */
    public static final class Expire extends BuiltInPlugins {
        public Expire() {
            super("plugins.expire_monitor.ExpireMonitor", ExpireMonitor::new);
        }
    }

    /** {@code plugins.stats_monitor.StatsMonitor}. */
    public static final class Stats extends BuiltInPlugins {
        public Stats() {
            super("plugins.stats_monitor.StatsMonitor", StatsMonitor::new);
        }
    }

    /** {@code plugins.zookeeper_monitor.ZookeeperMonitor}. */
    public static final class Zookeeper extends BuiltInPlugins {
        public Zookeeper() {
            super("plugins.zookeeper_monitor.ZookeeperMonitor", ZookeeperMonitor::new);
        }
    }
}
