package org.scrapycluster.kafkamonitor.dispatch;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import org.scrapycluster.common.request.RequestValidator;
import org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin;

/**
 * A plugin as the monitor runs it: the name it is listed under in {@code PLUGINS}, its rank, the
 * plugin and the validator of its schema.
 */
public final class RankedPlugin {

    private final String listedAs;
    private final int rank;
    private final KafkaMonitorPlugin plugin;
    private final RequestValidator validator;
    private final Set<String> properties = new HashSet<>();
    private final List<String> required = new ArrayList<>();
    private final boolean closed;

    /**
     * @param listedAs  the {@code PLUGINS} key, e.g. {@code plugins.scraper_handler.ScraperHandler}
     * @param rank      lower ranks are tried first
     * @param plugin    the plugin, set up
     * @param validator its schema, compiled with the configured safety checks
     */
    public RankedPlugin(String listedAs, int rank, KafkaMonitorPlugin plugin, RequestValidator validator) {
        this.listedAs = Objects.requireNonNull(listedAs, "listedAs");
        this.rank = rank;
        this.plugin = Objects.requireNonNull(plugin, "plugin");
        this.validator = Objects.requireNonNull(validator, "validator");
        JsonNode schema = validator.schema().document();
        schema.path("properties").fieldNames().forEachRemaining(properties::add);
        schema.path("required").forEach(name -> required.add(name.asText()));
        this.closed = !schema.path("additionalProperties").asBoolean(true);
    }

    public String listedAs() {
        return listedAs;
    }

    public int rank() {
        return rank;
    }

    public KafkaMonitorPlugin plugin() {
        return plugin;
    }

    public RequestValidator validator() {
        return validator;
    }

    /** The plugin's statistics name, e.g. {@code ScraperHandler}. */
    public String name() {
        return plugin.name();
    }

    /** The name of its schema, e.g. {@code scraper}. */
    public String schemaName() {
        return validator.schema().name();
    }

    /**
     * How far the fields of {@code request} are from what the schema expects: the required fields
     * it lacks, plus the fields it has that a closed schema ({@code additionalProperties: false})
     * does not list. 0 for a request that is not an object.
     */
    int distance(JsonNode request) {
        if (!request.isObject()) {
            return 0;
        }
        int distance = 0;
        for (String name : required) {
            if (!request.has(name)) {
                distance++;
            }
        }
        if (closed) {
            for (var names = request.fieldNames(); names.hasNext(); ) {
                if (!properties.contains(names.next())) {
                    distance++;
                }
            }
        }
        return distance;
    }

    /** How many fields of {@code request} the schema lists: more means the request was meant for this schema. */
    int listedFields(JsonNode request) {
        int listed = 0;
        for (var names = request.fieldNames(); names.hasNext(); ) {
            if (properties.contains(names.next())) {
                listed++;
            }
        }
        return listed;
    }

    @Override
    public String toString() {
        return name() + "(" + listedAs + ", rank " + rank + ")";
    }
}
