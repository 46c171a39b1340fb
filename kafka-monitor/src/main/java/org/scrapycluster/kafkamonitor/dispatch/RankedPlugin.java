package org.scrapycluster.kafkamonitor.dispatch;

import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import org.scrapycluster.common.request.RequestValidator;
import org.scrapycluster.common.request.SchemaFit;
import org.scrapycluster.common.request.SchemaShape;
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
    private final SchemaShape shape;

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
        this.shape = new SchemaShape(validator.schema());
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

    /** How well {@code request}, with {@code violations} violations of the plugin's schema, fits that schema. */
    SchemaFit fit(JsonNode request, int violations) {
        return shape.fit(request, violations);
    }

    @Override
    public String toString() {
        return name() + "(" + listedAs + ", rank " + rank + ")";
    }
}
