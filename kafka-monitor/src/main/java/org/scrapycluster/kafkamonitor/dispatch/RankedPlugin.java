package org.scrapycluster.kafkamonitor.dispatch;

import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.scrapycluster.common.extension.ExtensionFailures;
import org.scrapycluster.common.extension.OwnClassLoader;
import org.scrapycluster.common.request.RequestValidator;
import org.scrapycluster.common.request.SchemaFit;
import org.scrapycluster.common.request.SchemaShape;
import org.scrapycluster.kafkamonitor.plugin.Handling;
import org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin;

/**
 * A plugin as the monitor runs it: the name it is listed under in {@code PLUGINS}, its rank, the
 * plugin and the validator of its schema.
 */
public final class RankedPlugin {

    private final String listedAs;
    private final long rank;
    private final KafkaMonitorPlugin plugin;
    private final RequestValidator validator;
    private final SchemaShape shape;

    /**
     * @param listedAs  the {@code PLUGINS} key, e.g. {@code plugins.scraper_handler.ScraperHandler}
     * @param rank      lower ranks are tried first
     * @param plugin    the plugin, set up
     * @param validator its schema, compiled with the configured safety checks
     */
    public RankedPlugin(String listedAs, long rank, KafkaMonitorPlugin plugin, RequestValidator validator) {
        this.listedAs = Objects.requireNonNull(listedAs, "listedAs");
        this.rank = rank;
        this.plugin = Objects.requireNonNull(plugin, "plugin");
        this.validator = Objects.requireNonNull(validator, "validator");
        this.shape = new SchemaShape(validator.schema());
    }

    public String listedAs() {
        return listedAs;
    }

    public long rank() {
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
     * What the plugin says about {@code request}, asked with its own class loader: its handling, or how it failed when it
     * throws (an exception, or an error of its own code: {@link ExtensionFailures}) or answers nothing.
     */
    public Answer handle(ObjectNode request) {
        try {
            Handling handling = OwnClassLoader.call(plugin, () -> plugin.handle(request));
            return handling != null ? new Answer.Handled(handling) : new Answer.Failed("it returned no handling",
                    new IllegalStateException("it returned no handling"));
        } catch (Throwable e) {
            ExtensionFailures.rethrowIfFatal(e);
            return new Answer.Failed(e.toString(), e);
        }
    }

    /** The refusal of a request the plugin failed on: {@code problem} says how. */
    public Handling failedOn(String problem) {
        return Handling.refuse("The plugin " + name() + " failed to handle the request", List.of(problem));
    }

    /** What a plugin said about a request, or how it failed to say. */
    public sealed interface Answer {

        /** @param handling what the plugin said */
        record Handled(Handling handling) implements Answer {
        }

        /**
         * @param problem how the plugin failed, for the refusal
         * @param failure what it threw, or an exception of ours saying it answered nothing
         */
        record Failed(String problem, Throwable failure) implements Answer {
        }
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
