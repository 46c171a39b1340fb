package org.scrapycluster.redismonitor.job;

import org.scrapycluster.api.Extension;

/**
 * Makes one kind of {@link JobPlugin} once the Redis monitor is connected. A factory is an extension like
 * any other (docs/extending.md): a public class with a no-argument constructor, listed in
 * {@code META-INF/services/org.scrapycluster.redismonitor.job.JobPluginFactory}, its jar on the class path
 * or in a plugin folder, named in {@code PLUGINS} by its {@link #name()} (the built-ins by the original's
 * module paths, {@code plugins.info_monitor.InfoMonitor} …) or by its class name, with a rank.
 */
public interface JobPluginFactory extends Extension {

    /** The plugin, built with what a running monitor gives it. */
    JobPlugin create(PluginContext context);
}
