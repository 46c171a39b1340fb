package org.scrapycluster.kafkamonitor.dispatch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.scrapycluster.common.extension.ExtensionFailures;
import org.scrapycluster.common.extension.ExtensionLoader;
import org.scrapycluster.common.extension.ListedNames;
import org.scrapycluster.common.extension.PlacedEntry;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.request.RequestValidator;
import org.scrapycluster.common.request.SafetyChecks;
import org.scrapycluster.common.request.SchemaFit;
import org.scrapycluster.common.request.ValidationResult;
import org.scrapycluster.common.request.Violation;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.scrapycluster.kafkamonitor.plugin.ActionHandler;
import org.scrapycluster.kafkamonitor.plugin.KafkaMonitorPlugin;
import org.scrapycluster.kafkamonitor.plugin.ScraperHandler;
import org.scrapycluster.kafkamonitor.plugin.StatsHandler;
import org.scrapycluster.kafkamonitor.plugin.ZookeeperHandler;

/**
 * The plugins of a monitor, as the {@code PLUGINS} setting lists them (docs/compatibility.md §2.2-§2.3):
 * name → rank, tried in ascending rank, the first whose schema a request matches handling it. A
 * name is the original's module path of a built-in ({@code plugins.scraper_handler.ScraperHandler})
 * or a Java class name, loaded by {@link ExtensionLoader} from the class path or the plugin folders
 * (docs/extending.md); a null rank disables the entry, and an entry of the user's that names a built-in by its
 * {@code name()} or class replaces the default entry of its module path. A class is looked up by its name, so a plugin
 * jar that {@code PLUGINS} does not name is never loaded, and a broken one it names (a class its jar lacks) is an
 * error naming the jar and the class. Two plugins with one rank, an unknown class or name (a null entry's too), and a
 * class that is not a plugin are errors at start-up. Every
 * schema is validated with the safety checks {@code REQUEST_CHECK_IDS}, {@code REQUEST_CHECK_URLS}
 * and {@code REQUEST_CHECK_REGEXES} turn on.
 */
public final class PluginSet {

    /** The built-ins by the names the original's settings give them. */
    static final Map<String, Class<? extends KafkaMonitorPlugin>> ORIGINAL_NAMES = Map.of(
            "plugins.scraper_handler.ScraperHandler", ScraperHandler.class,
            "plugins.action_handler.ActionHandler", ActionHandler.class,
            "plugins.stats_handler.StatsHandler", StatsHandler.class,
            "plugins.zookeeper_handler.ZookeeperHandler", ZookeeperHandler.class);

    private static final String SETTING = "PLUGINS";

    private final List<RankedPlugin> plugins;

    private PluginSet(List<RankedPlugin> plugins) {
        this.plugins = List.copyOf(plugins);
    }

    /**
     * Loads, sets up and ranks the plugins {@code settings} list.
     *
     * @throws SettingsException when {@code PLUGINS} names an unknown class or a class that is not a
     *         plugin, places one plugin in two entries of the user's, gives a rank that is not a whole number, gives two
     *         plugins one rank or names two of one name,
     *         or names a plugin that cannot be set up (its setup throws, its schema is missing or invalid)
     */
    public static PluginSet load(Settings settings) {
        SafetyChecks checks = SafetyChecks.from(settings);
        ExtensionLoader<KafkaMonitorPlugin> loader = ExtensionLoader.of(KafkaMonitorPlugin.class, "Kafka monitor plugins", settings,
                ORIGINAL_NAMES);
        ListedNames called = new ListedNames(settings, SETTING);
        List<RankedPlugin> loaded = new ArrayList<>();
        for (PlacedEntry entry : loader.placed(SETTING, "rank")) {
            KafkaMonitorPlugin plugin = loader.instance(SETTING, entry.name());
            called.take(entry.name(), plugin.name());
            loaded.add(new RankedPlugin(entry.name(), entry.place(), plugin, setUp(settings, entry.name(), plugin, checks)));
        }
        return new PluginSet(loaded);
    }

    /** The plugins in the order they are tried. */
    public List<RankedPlugin> plugins() {
        return plugins;
    }

    /**
     * The first plugin whose schema {@code request} matches, with the request's defaults filled
     * in; or, when there is none, the violations of the schema it comes closest to: the fewest
     * required fields missing and unknown fields present, then the fewest violations, then the
     * most of its fields listed by the schema, then the lowest rank.
     */
    public Match match(JsonNode request) {
        RankedPlugin closest = null;
        ValidationResult.Invalid closestViolations = new ValidationResult.Invalid(
                List.of(new Violation("request", "no request plugin is enabled (PLUGINS)")));
        SchemaFit closestFit = null;
        for (RankedPlugin plugin : plugins) {
            ValidationResult result = plugin.validator().validate(request);
            if (result instanceof ValidationResult.Valid valid) {
                return new Match.Matched(plugin, valid.request());
            }
            ValidationResult.Invalid violations = (ValidationResult.Invalid) result;
            SchemaFit fit = plugin.fit(request, violations.count());
            if (closestFit == null || fit.closerThan(closestFit)) {
                closest = plugin;
                closestFit = fit;
                closestViolations = violations;
            }
        }
        return new Match.Unmatched(closest == null ? "none" : closest.schemaName(), closestViolations);
    }

    /**
     * The validator of {@code plugin}'s schema, once {@code setup} gave it; whatever setting it up throws (an error of the
     * plugin's code too) is a start-up error naming it as {@code PLUGINS} does.
     */
    private static RequestValidator setUp(Settings settings, String name, KafkaMonitorPlugin plugin, SafetyChecks checks) {
        try {
            return validator(plugin, plugin.setup(settings), checks);
        } catch (Throwable e) {
            ExtensionFailures.rethrowIfFatal(e);
            throw settings.invalid(SETTING, "names " + name + ", which cannot be set up: " + ExtensionFailures.described(e), e);
        }
    }

    private static RequestValidator validator(KafkaMonitorPlugin plugin, RequestSchema schema, SafetyChecks checks) {
        if (schema == null) {
            throw new IllegalStateException("The plugin " + plugin.getClass().getName() + " gave no schema");
        }
        try {
            return new RequestValidator(schema, checks);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("The plugin " + plugin.getClass().getName() + " has an invalid schema: "
                    + e.getMessage(), e);
        }
    }
}
