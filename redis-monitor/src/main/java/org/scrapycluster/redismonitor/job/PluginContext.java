package org.scrapycluster.redismonitor.job;

import java.time.Clock;

import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.redis.RedisConnection;
import org.scrapycluster.common.settings.Settings;

/**
 * What a job plugin is built from: the Redis monitor's settings, its shared Redis connection, the
 * clock answers take {@code server_time} from, and the health registry for checks of its own (the
 * zookeeper plugin's connection).
 */
public record PluginContext(Settings settings, RedisConnection redis, Clock clock, HealthRegistry health) {

    /** The clock's time in whole epoch seconds, the {@code server_time} of answers. */
    public long serverTime() {
        return clock.instant().getEpochSecond();
    }
}
