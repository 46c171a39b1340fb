package org.scrapycluster.kafkamonitor.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin;
import org.scrapycluster.kafkamonitor.plugin.PluginSchemas;

/** A user plugin during which the heap runs out: the cluster test's requests meet an {@link OutOfMemoryError}. */
public final class HeapExhaustingHandler implements KafkaMonitorPlugin {

    @Override
    public RequestSchema setup(Settings settings) {
        return PluginSchemas.resource(HeapExhaustingHandler.class, "cluster_test_schema.json");
    }

    @Override
    public Handling handle(ObjectNode request) {
        throw new OutOfMemoryError("Java heap space (thrown by a test plugin)");
    }
}
