package com.example.peek;

import org.scrapycluster.redismonitor.job.JobPlugin;
import org.scrapycluster.redismonitor.job.JobPluginFactory;
import org.scrapycluster.redismonitor.job.PluginContext;

/** Makes the {@link PeekMonitor} once the Redis monitor is connected; the Redis monitor's {@code PLUGINS} names it {@code peek}. */
public final class PeekMonitorFactory implements JobPluginFactory {

    @Override
    public String name() {
        return "peek";
    }

    @Override
    public JobPlugin create(PluginContext context) {
        return new PeekMonitor(context);
    }
}
