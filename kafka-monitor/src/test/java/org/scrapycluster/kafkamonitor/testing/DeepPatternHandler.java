package org.scrapycluster.kafkamonitor.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin;
import org.scrapycluster.kafkamonitor.plugin.PluginSchemas;
import org.scrapycluster.kafkamonitor.plugin.RedisEffect;

/**
 * A user plugin whose schema holds a pattern that a backtracking matcher, the JDK's, runs by recursion, one frame a
 * character ({@code ^(a|b)*$}): checked that way, a long enough {@code word} would overflow the monitor's stack.
 */
public final class DeepPatternHandler implements KafkaMonitorPlugin {

    @Override
    public RequestSchema setup(Settings settings) {
        return PluginSchemas.resource(DeepPatternHandler.class, "deep_pattern_schema.json");
    }

    @Override
    public Handling handle(ObjectNode request) {
        return Handling.accept("Matched", new RedisEffect.SetKey("deep:" + request.get("uuid").asText(), "1"));
    }
}
