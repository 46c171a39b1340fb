package org.scrapycluster.kafkamonitor.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin;
import org.scrapycluster.kafkamonitor.plugin.PluginSchemas;

/** A user plugin with a bug: it answers the cluster test's requests with no handling at all. */
public final class AnswerlessHandler implements KafkaMonitorPlugin {

    @Override
    public RequestSchema setup(Settings settings) {
        return PluginSchemas.resource(AnswerlessHandler.class, "cluster_test_schema.json");
    }

    @Override
    public Handling handle(ObjectNode request) {
        return null;
    }
}
