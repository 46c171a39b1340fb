package org.scrapycluster.kafkamonitor.plugin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.api.Extension;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.settings.Settings;

/**
 * A request handler of the Kafka monitor (docs/compatibility.md §2.2): it owns a JSON schema, and for
 * every request that matches it says what to write into Redis. The monitor tries its plugins in
 * ascending rank; the first whose schema a request matches handles it.
 *
 * <p>A plugin has a public no-argument constructor and is named in the {@code PLUGINS} setting by
 * its class name; its jar may sit in a plugin folder (docs/extending.md). It brings its
 * schema as a resource ({@link PluginSchemas#resource}). {@link #handle} returns data, not
 * actions: the monitor writes the effects of a whole batch pipelined, and commits the batch's
 * Kafka offsets only once they are written.
 */
public interface KafkaMonitorPlugin extends Extension {

    /**
     * The name the plugin's statistics are kept under ({@code stats:kafka-monitor:<name>:900}):
     * the simple class name, as in the original.
     */
    @Override
    default String name() {
        return getClass().getSimpleName();
    }

    /**
     * Prepares the plugin for a monitor with {@code settings}; called once, before any request.
     *
     * @return the JSON schema (Draft 4) of the requests this plugin handles
     * @throws RuntimeException when the plugin cannot work, for example because its schema is missing
     */
    RequestSchema setup(Settings settings);

    /**
     * Says what to do with a request that matched the schema. The request is a copy with the
     * schema's defaults filled in and {@code ts}, the epoch seconds it was taken in, added last;
     * the plugin may keep it. Called from one thread at a time.
     */
    Handling handle(ObjectNode request);
}
