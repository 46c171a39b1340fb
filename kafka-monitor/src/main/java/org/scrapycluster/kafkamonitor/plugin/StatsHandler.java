package org.scrapycluster.kafkamonitor.plugin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;

/**
 * Stats requests (docs/compatibility.md §2.4.3, §2.5): {@code SET statsrequest:<stats>:<appid> <uuid>}, a job
 * for the Redis monitor, which gathers the statistics and answers on the outbound topic.
 */
public final class StatsHandler implements KafkaMonitorPlugin {

    @Override
    public RequestSchema setup(Settings settings) {
        return RequestSchema.builtIn(RequestSchema.STATS);
    }

    @Override
    public Handling handle(ObjectNode request) {
        String key = Keyspace.STATS_REQUEST.fill(request.get("stats").asText(), request.get("appid").asText());
        return Handling.accept("Added stat request to Redis", new RedisEffect.SetJob(key, request.get("uuid").asText()));
    }
}
