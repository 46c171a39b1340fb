package org.scrapycluster.kafkamonitor.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin;

/** A user plugin copied from the stats handler without changing its name: it would count under the built-in's. */
public final class StatsLikeHandler implements KafkaMonitorPlugin {

    @Override
    public String name() {
        return "StatsHandler";
    }

    @Override
    public RequestSchema setup(Settings settings) {
        return RequestSchema.builtIn(RequestSchema.STATS);
    }

    @Override
    public Handling handle(ObjectNode request) {
        return Handling.refuse("never called", java.util.List.of());
    }
}
