package org.scrapycluster.kafkamonitor.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin;
import org.scrapycluster.kafkamonitor.plugin.PluginSchemas;
import org.scrapycluster.kafkamonitor.plugin.RedisEffect;

/**
 * A user plugin as in the original's online test (docs/compatibility.md §10.1): requests
 * {@code {"uuid": ..., "test": "cluster"}}, by its own schema, set {@code cluster:test:<uuid>} to the uuid.
 */
public final class ClusterTestHandler implements KafkaMonitorPlugin {

    @Override
    public RequestSchema setup(Settings settings) {
        return PluginSchemas.resource(ClusterTestHandler.class, "cluster_test_schema.json");
    }

    @Override
    public Handling handle(ObjectNode request) {
        String uuid = request.get("uuid").asText();
        return Handling.accept("Added cluster test to Redis", new RedisEffect.SetKey("cluster:test:" + uuid, uuid));
    }
}
