package org.scrapycluster.kafkamonitor.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin;
import org.scrapycluster.kafkamonitor.plugin.PluginSchemas;

/** A user plugin that takes the cluster test's requests and fails on each with an {@link Error} of its kind. */
abstract class FailingHandler implements KafkaMonitorPlugin {

    /** What each request meets. */
    abstract Error failure();

    @Override
    public RequestSchema setup(Settings settings) {
        return PluginSchemas.resource(FailingHandler.class, "cluster_test_schema.json");
    }

    @Override
    public Handling handle(ObjectNode request) {
        throw failure();
    }
}
