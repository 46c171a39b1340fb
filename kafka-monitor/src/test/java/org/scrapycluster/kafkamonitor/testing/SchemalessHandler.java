package org.scrapycluster.kafkamonitor.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin;
import org.scrapycluster.kafkamonitor.plugin.PluginSchemas;

/** A user plugin whose schema file is missing: it cannot be set up. */
public final class SchemalessHandler implements KafkaMonitorPlugin {

    @Override
    public RequestSchema setup(Settings settings) {
        return PluginSchemas.resource(SchemalessHandler.class, "schemaless_schema.json");
    }

    @Override
    public Handling handle(ObjectNode request) {
        return Handling.refuse("never called", java.util.List.of());
    }
}
