package org.scrapycluster.common.settings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.scrapycluster.common.file.UnreadableFile;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Applies the layers — defaults, override file, environment, command line — to the schemas of
 * one or more services. Map values merge one level deep: the inner entries of an override are
 * put over the inner entries below it (a null inner value stays, so {@code PLUGINS: {X: null}}
 * disables X); anything deeper is replaced whole. A name scoped to a service ({@code kafka-monitor.PLUGINS}) in the
 * override file or on the command line applies to that service alone, after the unscoped names of its layer, so that
 * one file, or {@code standalone}'s one command line, can give two services that declare one name (the Kafka and Redis
 * monitors' {@code PLUGINS}) different values.
 */
final class SettingsLoader {

    /** Environment variables the original's Docker images read under another name (docs/settings.md). */
    private static final Map<String, String> ENVIRONMENT_ALIASES = Map.of("SCHEDULER_QUEUE_TIEOUT", "SCHEDULER_QUEUE_TIMEOUT");

    /** A name scoped to one service: {@code kafka-monitor.PLUGINS}. */
    private static final Pattern SCOPED = Pattern.compile("([a-z][a-z-]*)\\.(.+)");

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
            Applied applied = new Applied(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>());
            schema.declarations().forEach(d -> applied.values().put(d.name(), d.defaultValue()));
            String fileName = String.valueOf(sources.overrideFile());
            forService(file, service).forEach(entry -> apply(schema, entry, Layer.FILE, fileName, applied));
            environment(sources.environment())
                    .forEach((name, value) -> apply(schema, new Entry(name, name, value), Layer.ENVIRONMENT, null, applied));
            forService(sources.commandLine(), service).forEach(entry -> apply(schema, entry, Layer.COMMAND_LINE, null, applied));
            result.put(service, new Settings(schema, applied.values(), applied.layers(), applied.setAs(), applied.written()));
        });
        return new SettingsGroup(result);
    }

    /**
     * Converts {@code value} (text from the environment or command line, or a YAML value) to the
     * declared type, or throws a {@link SettingsException} naming the setting, layer and type.
     */
    static Object convert(SettingDeclaration declaration, Object value, Layer layer, String fileName) {
        return convert(declaration, declaration.name(), value, layer, fileName);
    }

    /** {@link #convert(SettingDeclaration, Object, Layer, String)} of a value set as {@code written} ({@code kafka-monitor.PLUGINS}). */
    private static Object convert(SettingDeclaration declaration, String written, Object value, Layer layer, String fileName) {
        try {
            if (value instanceof String text && layer != Layer.FILE) {
                return declaration.fromText(text, layer == Layer.ENVIRONMENT);
            }
            return declaration.fromYaml(value);
        } catch (IllegalArgumentException e) {
            String where = layer == Layer.FILE ? "the override file " + fileName : layer.description();
            throw new SettingsException("Setting " + written + " from " + where + ": " + e.getMessage()
                    + " (expected " + declaration.typeName() + ")", e);
        }
    }

    private static void apply(SettingsSchema schema, Entry entry, Layer layer, String fileName, Applied applied) {
        schema.find(entry.name()).ifPresent(declaration -> {
            Object converted = convert(declaration, entry.written(), entry.value(), layer, fileName);
            applied.values().put(entry.name(), merge(applied.values().get(entry.name()), converted));
            applied.written().computeIfAbsent(entry.name(), name -> new LinkedHashSet<>()).addAll(entriesOf(converted));
            applied.layers().put(entry.name(), layer);
            if (entry.written().equals(entry.name())) {
                applied.setAs().remove(entry.name());
            } else {
                applied.setAs().put(entry.name(), entry.written());
            }
        });
    }

    /**
     * One service's values as the layers are applied, the layer each came from last, the name it was set as, and the entries
     * of its map settings written above the defaults.
     */
    private record Applied(Map<String, Object> values, Map<String, Layer> layers, Map<String, String> setAs,
            Map<String, Set<String>> written) {
    }

    /** The entries {@code value} writes when it is a map, by name; none otherwise. */
    static Set<String> entriesOf(Object value) {
        Set<String> entries = new LinkedHashSet<>();
        if (value instanceof Map<?, ?> map) {
            map.keySet().forEach(key -> entries.add(String.valueOf(key)));
        }
        return entries;
    }

    /** A value one layer sets: the name as the layer wrote it ({@code kafka-monitor.PLUGINS}), and the setting's. */
    private record Entry(String written, String name, Object value) {
    }

    /**
     * The entries of one layer that apply to {@code service}, in the order they are applied: the unscoped ones, then those
     * scoped to it, unscoped (both may set one name: the scoped one merges over the other).
     */
    private static List<Entry> forService(Map<String, ?> layer, String service) {
        List<Entry> applying = new ArrayList<>();
        layer.forEach((name, value) -> {
            if (!SCOPED.matcher(name).matches()) {
                applying.add(new Entry(name, name, value));
            }
        });
        layer.forEach((name, value) -> {
            Matcher scoped = SCOPED.matcher(name);
            if (scoped.matches() && scoped.group(1).equals(service)) {
                applying.add(new Entry(name, scoped.group(2), value));
            }
        });
        return applying;
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
            Matcher scoped = SCOPED.matcher(name);
            if (scoped.matches()) {
                requireDeclared(name, scoped.group(1), scoped.group(2), where);
            } else if (!known.containsKey(name)) {
                throw new SettingsException("Unknown setting " + name + " in " + where
                        + (SettingsFile.SETTING_NAME.matcher(name).matches() ? UnknownSettingHint.of(name, known.keySet())
                                : " (setting names are UPPER_SNAKE_CASE)"));
            }
        }
    }

    /** Refuses {@code scopedName} unless {@code service} is a service that declares {@code name}, whether or not it runs here. */
    private static void requireDeclared(String scopedName, String service, String name, String where) {
        if (!SettingsSchema.SERVICES.contains(service)) {
            throw new SettingsException("Unknown setting " + scopedName + " in " + where + ": " + service + " is not a service; the services are "
                    + String.join(", ", SettingsSchema.SERVICES));
        }
        if (SettingsSchema.load(service).find(name).isEmpty()) {
            throw new SettingsException("Unknown setting " + scopedName + " in " + where + ": the " + service + " service does not declare " + name);
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
            loaded = SettingsYaml.loader(SettingsFile.strictOptions()).load(text);
        } catch (YAMLException e) {
            throw new SettingsException("The override file " + path + " is not valid YAML: " + SettingsFile.problemOf(e), e);
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
