package org.scrapycluster.kafkamonitor.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin;
import org.scrapycluster.kafkamonitor.plugin.PluginSchemas;

/** A user plugin whose jar lacks a library it uses: the cluster test's requests reach a class that is not there. */
public final class BrokenJarHandler implements KafkaMonitorPlugin {

    @Override
    public RequestSchema setup(Settings settings) {
        return PluginSchemas.resource(BrokenJarHandler.class, "cluster_test_schema.json");
    }

    @Override
    public Handling handle(ObjectNode request) {
        throw new NoClassDefFoundError("com/example/Missing");
    }
}
