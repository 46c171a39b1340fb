package org.scrapycluster.kafkamonitor.plugin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.scrapycluster.common.json.Json;
import org.scrapycluster.common.request.RequestSchema;

/** Where plugins get their JSON schemas from. */
public final class PluginSchemas {

    private PluginSchemas() {
    }

    /**
     * The schema in the class-path resource {@code resource} next to {@code plugin} (a name
     * without a leading {@code /} is relative to the plugin's package), named after the file.
     *
     * @throws IllegalStateException when the resource is missing, is not JSON (said with where it went wrong) or is not a
     *                               JSON object
     */
    public static RequestSchema resource(Class<? extends KafkaMonitorPlugin> plugin, String resource) {
        String file = resource.substring(resource.lastIndexOf('/') + 1);
        String name = file.endsWith(".json") ? file.substring(0, file.length() - ".json".length()) : file;
        try (InputStream in = plugin.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("The schema " + resource + " of the plugin " + plugin.getName()
                        + " is not on the class path");
            }
            return RequestSchema.read(name, in);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("The schema " + resource + " of the plugin " + plugin.getName() + " is not valid JSON: "
                    + e.getOriginalMessage() + Json.where(e.getLocation()), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the schema " + resource + " of the plugin " + plugin.getName(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("The schema " + resource + " of the plugin " + plugin.getName()
                    + " is not a JSON schema object: " + e.getMessage(), e);
        }
    }
}
