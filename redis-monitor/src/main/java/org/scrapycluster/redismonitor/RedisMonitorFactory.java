package org.scrapycluster.redismonitor;

import org.scrapycluster.common.service.Service;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.service.ServiceFactory;
import org.scrapycluster.common.settings.Settings;

/** Builds the Redis monitor, for standalone and for {@code scrapy-cluster redis-monitor}. */
public final class RedisMonitorFactory implements ServiceFactory {

    @Override
    public String name() {
        return "redis-monitor";
    }

    @Override
    public void check(Settings settings) {
        RedisMonitor.check(settings);
    }

    @Override
    public Service create(ServiceContext context) {
        return new RedisMonitor(context);
    }
}
