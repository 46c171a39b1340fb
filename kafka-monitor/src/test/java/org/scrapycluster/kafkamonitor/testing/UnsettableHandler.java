package org.scrapycluster.kafkamonitor.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin;

/** A user plugin whose setup fails with a bug of its own, a message that does not name it. */
public final class UnsettableHandler implements KafkaMonitorPlugin {

    @Override
    public RequestSchema setup(Settings settings) {
        throw new IllegalStateException("cannot reach the licence server");
    }

    @Override
    public Handling handle(ObjectNode request) {
        return Handling.refuse("never called", java.util.List.of());
    }
}
