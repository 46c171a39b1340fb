package org.scrapycluster.redismonitor;

import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.JobPluginFactory;
import org.scrapycluster.redismonitor.job.PluginContext;

/** A test factory, named in {@code PLUGINS} by its class name, that cannot make its plugin. */
public final class UncreatableFactory implements JobPluginFactory {

    @Override
    public String name() {
        return "uncreatable";
    }

    @Override
    public JobPlugin create(PluginContext context) {
        throw new IllegalStateException("no licence file");
    }
}
