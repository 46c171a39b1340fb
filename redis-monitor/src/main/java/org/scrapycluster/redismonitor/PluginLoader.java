package org.scrapycluster.redismonitor;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.redismonitor.crawl.ExpireMonitor;
import org.scrapycluster.redismonitor.crawl.StopMonitor;
import org.scrapycluster.redismonitor.info.InfoMonitor;
import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.PluginContext;
import org.scrapycluster.redismonitor.stats.StatsMonitor;
import org.scrapycluster.redismonitor.zookeeper.ZookeeperMonitor;

/**
 * Reads the {@code PLUGINS} setting (docs/compatibility.md §3.1): the original's names for the built-in
 * plugins ({@code plugins.info_monitor.InfoMonitor} …) or the class name of a {@link JobPlugin}
 * with a public constructor taking a {@link PluginContext}, each with its rank. A null rank
 * disables a plugin; two plugins with one rank, a rank that is not a whole number and a name that
 * is neither are refused with a message naming the setting. {@link #resolve} checks all of that
 * when the service is built; {@link #build} makes the plugins once Redis is connected.
 */
final class PluginLoader {

    private static final Map<String, Function<PluginContext, JobPlugin>> BUILT_IN = Map.of(
            "plugins.info_monitor.InfoMonitor", InfoMonitor::new,
            "plugins.stop_monitor.StopMonitor", StopMonitor::new,
            "plugins.expire_monitor.ExpireMonitor", ExpireMonitor::new,
            "plugins.stats_monitor.StatsMonitor", StatsMonitor::new,
            "plugins.zookeeper_monitor.ZookeeperMonitor", ZookeeperMonitor::new);

    private PluginLoader() {
    }

    /**
     * One plugin to build.
     *
     * @param name    as {@code PLUGINS} names it
     * @param rank    its rank (lowest runs first)
     * @param builder makes it
     */
    record PluginSpec(String name, long rank, Function<PluginContext, JobPlugin> builder) {
    }

    /**
     * The plugins {@code PLUGINS} names, in rank order, checked but not built.
     *
     * @throws SettingsException when {@code PLUGINS} cannot be used
     */
    static List<PluginSpec> resolve(Settings settings) {
        List<PluginSpec> specs = new ArrayList<>();
        Map<Long, String> byRank = new HashMap<>();
        settings.getMap("PLUGINS").forEach((name, rank) -> {
            if (rank == null) {
                return;
            }
            if (!(rank instanceof Integer || rank instanceof Long)) {
                throw settings.invalid("PLUGINS", "gives " + name + " the rank '" + rank + "'; a rank is a whole number, or null to disable");
            }
            long value = ((Number) rank).longValue();
            String other = byRank.putIfAbsent(value, name);
            if (other != null) {
                throw settings.invalid("PLUGINS", "gives the rank " + value + " to both " + other + " and " + name
                        + "; each plugin needs a rank of its own");
            }
            specs.add(new PluginSpec(name, value, builder(settings, name)));
        });
        specs.sort(Comparator.comparingLong(PluginSpec::rank));
        return List.copyOf(specs);
    }

    /** Builds {@code specs} in order; when one fails, those already built are closed. */
    static List<JobPlugin> build(List<PluginSpec> specs, PluginContext context) {
        List<JobPlugin> plugins = new ArrayList<>();
        try {
            for (PluginSpec spec : specs) {
                plugins.add(spec.builder().apply(context));
            }
            return List.copyOf(plugins);
        } catch (RuntimeException e) {
            plugins.forEach(JobPlugin::close);
            throw e;
        }
    }

    private static Function<PluginContext, JobPlugin> builder(Settings settings, String name) {
        Function<PluginContext, JobPlugin> builtIn = BUILT_IN.get(name);
        if (builtIn != null) {
            return builtIn;
        }
        Class<?> type;
        try {
            type = Class.forName(name, false, PluginLoader.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw settings.invalid("PLUGINS", "names " + name + ", which is neither a built-in plugin ("
                    + String.join(", ", BUILT_IN.keySet().stream().sorted().toList()) + ") nor a class on the class path");
        }
        if (!JobPlugin.class.isAssignableFrom(type)) {
            throw settings.invalid("PLUGINS", "names " + name + ", which does not implement " + JobPlugin.class.getName());
        }
        Constructor<?> constructor;
        try {
            constructor = type.getConstructor(PluginContext.class);
        } catch (NoSuchMethodException e) {
            throw settings.invalid("PLUGINS", "names " + name + ", which has no public constructor taking a "
                    + PluginContext.class.getName());
        }
        return context -> {
            try {
                return (JobPlugin) constructor.newInstance(context);
            } catch (InvocationTargetException e) {
                throw new SettingsException("The plugin " + name + " named in PLUGINS failed to start: " + e.getCause(), e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new SettingsException("The plugin " + name + " named in PLUGINS cannot be built: " + e, e);
            }
        };
    }
}
