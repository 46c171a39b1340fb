package org.scrapycluster.kafkamonitor.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin;
import org.scrapycluster.kafkamonitor.plugin.PluginSchemas;
import org.scrapycluster.kafkamonitor.plugin.RedisEffect;

/** A user plugin with a bug: it accepts the cluster test's requests after attaching to each an object JSON cannot hold. */
public final class ObjectAttachingHandler implements KafkaMonitorPlugin {

    @Override
    public RequestSchema setup(Settings settings) {
        return PluginSchemas.resource(ObjectAttachingHandler.class, "cluster_test_schema.json");
    }

    @Override
    public Handling handle(ObjectNode request) {
        request.putPOJO("attached", new Object());
        return Handling.accept("Attached", new RedisEffect.SetKey("attached:" + request.get("uuid").asText(), "1"));
    }
}
