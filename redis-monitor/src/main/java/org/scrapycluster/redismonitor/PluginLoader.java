package org.scrapycluster.redismonitor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.scrapycluster.common.extension.ExtensionCloser;
import org.scrapycluster.common.extension.ExtensionFailures;
import org.scrapycluster.common.extension.ExtensionLoader;
import org.scrapycluster.common.extension.ListedNames;
import org.scrapycluster.common.extension.PlacedEntry;
import org.scrapycluster.common.redis.Glob;
import org.scrapycluster.common.service.StopBudget;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.redismonitor.job.JobPattern;
import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.JobPluginFactory;
import org.scrapycluster.redismonitor.job.PluginContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the {@code PLUGINS} setting (docs/redis-monitor.md): the original's names for the built-in
 * plugins ({@code plugins.info_monitor.InfoMonitor} …) or the name or class name of a
 * {@link JobPluginFactory}, found by {@link ExtensionLoader} on the class path or in the plugin folders,
 * each with its rank, read as {@link ExtensionLoader#placed} reads it. A null rank
 * disables a plugin; two plugins with one rank, a rank that is not a whole number and a name that
 * is neither (a null entry's too) are refused with a message naming the setting. {@link #resolve} checks all of that
 * when the service is built; {@link #build} makes the plugins once Redis is connected.
 */
final class PluginLoader {

    private static final Logger LOG = LoggerFactory.getLogger(PluginLoader.class);
    /** What the plugins' closes share when the monitor stops (docs/extending.md): a plugin still closing then is not waited for. */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
    private static final ExtensionCloser<JobPlugin> CLOSER = new ExtensionCloser<>(LOG, "Redis monitor plugin", JobPlugin::name);

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
        ExtensionLoader<JobPluginFactory> loader = ExtensionLoader.of(JobPluginFactory.class, "Redis monitor plugins", settings);
        List<PluginSpec> specs = new ArrayList<>();
        for (PlacedEntry entry : loader.placed("PLUGINS", "rank")) {
            specs.add(new PluginSpec(entry.name(), entry.place(), builder(loader, entry.name())));
        }
        return List.copyOf(specs);
    }

    /**
     * Builds {@code specs} in order, each asked for the glob of its job keys at once, so that a factory that cannot make
     * its plugin, a plugin that cannot name its keys or names the cluster's own, two plugins that take one built-in job's
     * keys, and two plugins of one name are a start-up error naming them
     * (docs/extending.md); when one fails, every plugin already built is closed, last
     * first, within {@link #CLOSE_WAIT} together, a close that throws riding along with the start-up error.
     */
    static List<JobPlugin> build(List<PluginSpec> specs, PluginContext context) {
        List<JobPlugin> plugins = new ArrayList<>();
        ListedNames called = new ListedNames(context.settings(), "PLUGINS");
        Map<String, String> jobsTaken = new HashMap<>();
        try {
            for (PluginSpec spec : specs) {
                JobPlugin plugin = create(spec, context);
                plugins.add(plugin);
                Glob glob = requirePattern(spec.name(), plugin, context.settings());
                requireJobsOfItsOwn(spec.name(), glob, jobsTaken, context.settings());
                called.take(spec.name(), plugin.name());
            }
            return List.copyOf(plugins);
        } catch (RuntimeException e) {
            CLOSER.closeAll(plugins, CLOSE_WAIT, (built, wait) -> {
                try {
                    CLOSER.closeWithin(built, wait);
                } catch (Throwable closing) {
                    ExtensionFailures.rethrowIfFatal(closing);
                    e.addSuppressed(closing);
                }
            });
            throw e;
        }
    }

    /**
     * Closes {@code plugins}, last first, as a stop does: within {@link #CLOSE_WAIT} together, and within what the stop's
     * {@code budget} grants an ordinary wait.
     */
    static void closeAll(List<JobPlugin> plugins, StopBudget budget) {
        CLOSER.closeAll(plugins, budget.waitFor(CLOSE_WAIT));
    }

    /**
     * The plugin {@code spec}'s factory makes; whatever it throws (an error of the plugin's code too), or a null plugin,
     * is a start-up error naming it, so that the plugins already built are closed.
     */
    private static JobPlugin create(PluginSpec spec, PluginContext context) {
        JobPlugin plugin;
        try {
            plugin = spec.builder().apply(context);
        } catch (Throwable e) {
            ExtensionFailures.rethrowIfFatal(e);
            throw context.settings().invalid("PLUGINS", "names " + spec.name() + ", whose create() failed to make its plugin: "
                    + ExtensionFailures.described(e), e);
        }
        if (plugin == null) {
            throw context.settings().invalid("PLUGINS", "names " + spec.name() + ", whose create() returned no plugin (null)");
        }
        return plugin;
    }

    private static Glob requirePattern(String name, JobPlugin plugin, Settings settings) {
        try {
            return JobPattern.check(plugin);
        } catch (JobPattern.Missing e) {
            throw settings.invalid("PLUGINS", "names " + name + ", whose pattern(), the glob of its job keys, " + e.getMessage());
        }
    }

    /**
     * Refuses the plugin {@code name} when its {@code glob} matches a built-in job's keys that a plugin built before it
     * takes ({@code jobsTaken}, key → the name of that plugin): a plugin of {@code timeout:*} beside the expire job would
     * take some of its jobs and delete them, and crawls would go unexpired. A plugin that replaces a built-in disables it.
     */
    private static void requireJobsOfItsOwn(String name, Glob glob, Map<String, String> jobsTaken, Settings settings) {
        for (String key : JobPattern.jobKeys(glob)) {
            String other = jobsTaken.putIfAbsent(key, name);
            if (other != null) {
                throw settings.invalid("PLUGINS", "names " + other + " and " + name + ", whose patterns both match job keys such as "
                        + key + ": each of those jobs would go to whichever takes it first, and the other would never see it; "
                        + "disable one of them (a null rank)");
            }
        }
    }

    private static Function<PluginContext, JobPlugin> builder(ExtensionLoader<JobPluginFactory> loader, String name) {
        return loader.instance("PLUGINS", name)::create;
    }
}
