package org.scrapycluster.common.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.scrapycluster.common.logging.LogConfig;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsGroup;
import org.scrapycluster.common.settings.SettingsSchema;
import org.scrapycluster.common.settings.SettingsSources;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The options every service and tool takes (docs/compatibility.md §9), for use as a picocli {@code @Mixin}:
 * {@code --config FILE}, {@code --set NAME=VALUE} (repeatable), {@code --log-level},
 * {@code --log-json} and {@code --log-file}. The logging flags are shorthands for {@code --set}
 * of the service's logging settings, and can only switch JSON and file logging on.
 */
public final class SettingsOptions {

    @Option(names = "--config", paramLabel = "FILE",
            description = "Local settings file (YAML) overriding the defaults.")
    Path config;

    @Option(names = "--set", paramLabel = "NAME=VALUE", converter = AssignmentConverter.class,
            description = "Set one setting; wins over the settings file and the environment. Repeatable.")
    List<Assignment> sets = new ArrayList<>();

    @Option(names = {"-ll", "--log-level"}, paramLabel = "LEVEL",
            description = "Log level: DEBUG, INFO, WARNING, ERROR or CRITICAL.")
    String logLevel;

    @Option(names = {"-lj", "--log-json"}, description = "Log JSON lines.")
    boolean logJson;

    @Option(names = {"-lf", "--log-file"}, description = "Log to LOG_DIR/LOG_FILE instead of the console (standard output; standard error for the client tools).")
    boolean logFile;

    /** The user's layers, with the logging flags applied to settings named with {@code logPrefix}. */
    public SettingsSources sources(String logPrefix) {
        return sources(logPrefix, Map.of());
    }

    private SettingsSources sources(String logPrefix, Map<String, String> commandOptions) {
        Map<String, String> commandLine = new LinkedHashMap<>();
        sets.forEach(set -> commandLine.put(set.name(), set.value()));
        commandOptions.forEach((name, value) -> beatingSets(commandLine, name, value));
        if (logLevel != null) {
            beatingSets(commandLine, logPrefix + "LOG_LEVEL", logLevel);
        }
        if (logJson) {
            beatingSets(commandLine, logPrefix + "LOG_JSON", "true");
        }
        if (logFile) {
            beatingSets(commandLine, logPrefix + "LOG_STDOUT", "false");
        }
        return new SettingsSources(config, System.getenv(), commandLine);
    }

    /**
     * Sets {@code name} as a command's own option does: over a {@code --set} of it, scoped to a service
     * ({@code crawler.SPIDER_NAME}) or not, which would otherwise apply after it.
     */
    private static void beatingSets(Map<String, String> commandLine, String name, String value) {
        commandLine.keySet().removeIf(set -> set.endsWith("." + name));
        commandLine.put(name, value);
    }

    /** The settings of {@code service} from its defaults and these options. */
    public Settings load(String service) {
        return load(service, Map.of());
    }

    /**
     * As {@link #load(String)}, with {@code commandOptions}, the settings a command's own options set ({@code --spider}
     * sets {@code SPIDER_NAME}), on the command line after {@code --set}.
     */
    public Settings load(String service, Map<String, String> commandOptions) {
        String prefix = LogConfig.prefix(Settings.defaults(service));
        return Settings.load(service, sources(prefix, commandOptions));
    }

    /**
     * The settings of {@code service} for a client tool ({@code feed}, {@code dump}, {@code zookeeper}): as {@link #load}
     * does, except that the file and the command line may also hold the settings of the other services, as one file
     * serving {@code standalone} and the tools does. Those are checked as {@code standalone} checks them and left
     * unused; a name no service declares is still an error.
     */
    public Settings loadForTool(String service) {
        String prefix = LogConfig.prefix(Settings.defaults(service));
        return SettingsGroup.load(SettingsSchema.SERVICES, sources(prefix)).service(service);
    }

    /** The settings of several services from these options; the logging flags set the {@code LOG_*} names. */
    public SettingsGroup loadGroup(List<String> services) {
        return SettingsGroup.load(services, sources(""));
    }

    /** Every service's settings, as standalone loads them. */
    public SettingsGroup loadAll() {
        return loadGroup(SettingsSchema.SERVICES);
    }

    /** One {@code --set NAME=VALUE}; a later one of the same name wins. */
    record Assignment(String name, String value) {
    }

    /**
     * Reads {@code NAME=VALUE} at the first {@code =}, so that a value may hold more. Text without a name before its
     * {@code =}, or without one at all, is a usage error naming the option, where picocli's own map option said
     * "Value for option option …" or passed an empty name on.
     */
    static final class AssignmentConverter implements ITypeConverter<Assignment> {

        @Override
        public Assignment convert(String text) {
            int equals = text.indexOf('=');
            if (equals <= 0 || text.substring(0, equals).isBlank()) {
                throw new TypeConversionException("'" + text + "' is no NAME=VALUE (--set KAFKA_HOSTS=kafka-1:9092)");
            }
            return new Assignment(text.substring(0, equals), text.substring(equals + 1));
        }
    }
}
