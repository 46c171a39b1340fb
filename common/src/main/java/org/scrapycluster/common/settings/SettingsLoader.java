package org.scrapycluster.common.settings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.scrapycluster.common.file.UnreadableFile;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Applies the layers — defaults, override file, environment, command line — to the schemas of
 * one or more services. Map values merge one level deep: the inner entries of an override are
 * put over the inner entries below it (a null inner value stays, so {@code PLUGINS: {X: null}}
 * disables X); anything deeper is replaced whole.
 */
final class SettingsLoader {

    /** Environment variables the original's Docker images read under another name (§8.6). */
    private static final Map<String, String> ENVIRONMENT_ALIASES = Map.of("SCHEDULER_QUEUE_TIEOUT", "SCHEDULER_QUEUE_TIMEOUT");

    private SettingsLoader() {
    }

    static SettingsGroup load(List<String> services, SettingsSources sources) {
        Map<String, SettingsSchema> schemas = new LinkedHashMap<>();
        for (String service : services) {
            schemas.put(service, SettingsSchema.load(service));
        }
        Map<String, SettingDeclaration> known = knownNames(schemas);
        Map<String, Object> file = sources.overrideFile() == null ? Map.of() : readOverrideFile(sources.overrideFile());
        requireKnown(file, known, "the override file " + sources.overrideFile());
        requireKnown(sources.commandLine(), known, "the command line");

        Map<String, Settings> result = new LinkedHashMap<>();
        schemas.forEach((service, schema) -> {
            Map<String, Object> values = new LinkedHashMap<>();
            Map<String, Layer> layers = new LinkedHashMap<>();
            schema.declarations().forEach(d -> values.put(d.name(), d.defaultValue()));
            String fileName = String.valueOf(sources.overrideFile());
            file.forEach((name, value) -> apply(schema, name, value, Layer.FILE, fileName, values, layers));
            environment(sources.environment()).forEach((name, value) -> apply(schema, name, value, Layer.ENVIRONMENT, null, values, layers));
            sources.commandLine().forEach((name, value) -> apply(schema, name, value, Layer.COMMAND_LINE, null, values, layers));
            result.put(service, new Settings(schema, values, layers));
        });
        return new SettingsGroup(result);
    }

    /**
     * Converts {@code value} (text from the environment or command line, or a YAML value) to the
     * declared type, or throws a {@link SettingsException} naming the setting, layer and type.
     */
    static Object convert(SettingDeclaration declaration, Object value, Layer layer, String fileName) {
        try {
            if (value instanceof String text && layer != Layer.FILE) {
                return declaration.fromText(text, layer == Layer.ENVIRONMENT);
            }
            return declaration.fromYaml(value);
        } catch (IllegalArgumentException e) {
            String where = layer == Layer.FILE ? "the override file " + fileName : layer.description();
            throw new SettingsException("Setting " + declaration.name() + " from " + where + ": " + e.getMessage()
                    + " (expected " + declaration.typeName() + ")", e);
        }
    }

    private static void apply(SettingsSchema schema, String name, Object value, Layer layer, String fileName,
            Map<String, Object> values, Map<String, Layer> layers) {
        schema.find(name).ifPresent(declaration -> {
            Object converted = convert(declaration, value, layer, fileName);
            values.put(name, merge(values.get(name), converted));
            layers.put(name, layer);
        });
    }

    private static Object merge(Object below, Object above) {
        if (below instanceof Map<?, ?> lower && above instanceof Map<?, ?> upper) {
            Map<String, Object> merged = new LinkedHashMap<>();
            lower.forEach((key, value) -> merged.put(String.valueOf(key), value));
            upper.forEach((key, value) -> merged.put(String.valueOf(key), value));
            return java.util.Collections.unmodifiableMap(merged);
        }
        return above;
    }

    /** The environment variables to apply, with aliases renamed; a real name beats its alias. */
    private static Map<String, String> environment(Map<String, String> environment) {
        Map<String, String> renamed = new LinkedHashMap<>();
        ENVIRONMENT_ALIASES.forEach((alias, name) -> {
            if (environment.containsKey(alias)) {
                renamed.put(name, environment.get(alias));
            }
        });
        renamed.putAll(environment);
        return renamed;
    }

    private static Map<String, SettingDeclaration> knownNames(Map<String, SettingsSchema> schemas) {
        Map<String, SettingDeclaration> known = new LinkedHashMap<>();
        for (SettingsSchema schema : schemas.values()) {
            for (SettingDeclaration declaration : schema.declarations()) {
                SettingDeclaration other = known.putIfAbsent(declaration.name(), declaration);
                if (other != null && !other.typeName().equals(declaration.typeName())) {
                    throw new SettingsException("setting " + declaration.name() + " is a " + other.typeName() + " in "
                            + other.file() + " but a " + declaration.typeName() + " in " + declaration.file());
                }
            }
        }
        return known;
    }

    private static void requireKnown(Map<String, ?> overrides, Map<String, SettingDeclaration> known, String where) {
        for (String name : overrides.keySet()) {
            if (!known.containsKey(name)) {
                throw new SettingsException("Unknown setting " + name + " in " + where
                        + (SettingsFile.SETTING_NAME.matcher(name).matches() ? "" : " (setting names are UPPER_SNAKE_CASE)"));
            }
        }
    }

    private static Map<String, Object> readOverrideFile(Path path) {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new SettingsException("Cannot read the override file " + path + ": " + UnreadableFile.reason(e), e);
        }
        Object loaded;
        try {
            loaded = new Yaml(new SafeConstructor(SettingsFile.strictOptions())).load(text);
        } catch (YAMLException | IllegalArgumentException e) {
            // a value its explicit tag cannot read (!!int x) fails with the number parser's exception
            throw new SettingsException("The override file " + path + " is not valid YAML: " + e.getMessage(), e);
        }
        if (loaded == null) {
            return Map.of();
        }
        if (!(loaded instanceof Map<?, ?> map)) {
            throw new SettingsException("The override file " + path + " must be a map of NAME: value");
        }
        Map<String, Object> values = new LinkedHashMap<>();
        map.forEach((key, value) -> values.put(String.valueOf(key), value));
        return values;
    }
}
