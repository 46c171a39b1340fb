package org.scrapycluster.common.settings;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.scrapycluster.common.net.Port;

/**
 * The settings of one service after every layer is applied, read through typed getters. A
 * getter of the wrong type for a setting, or of a setting the service does not declare, is a
 * programming error and throws. Instances are immutable.
 */
public final class Settings {

    private final SettingsSchema schema;
    private final Map<String, Object> values;
    private final Map<String, Layer> layers;
    /** The names whose value was last set under a service's prefix, as it was written ({@code kafka-monitor.PLUGINS}). */
    private final Map<String, String> setAs;
    /** The entries of map settings that a layer above the defaults wrote, by setting. */
    private final Map<String, Set<String>> writtenEntries;

    Settings(SettingsSchema schema, Map<String, Object> values, Map<String, Layer> layers, Map<String, String> setAs,
            Map<String, Set<String>> writtenEntries) {
        this.schema = schema;
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.layers = Map.copyOf(layers);
        this.setAs = Map.copyOf(setAs);
        Map<String, Set<String>> written = new LinkedHashMap<>();
        writtenEntries.forEach((name, entries) -> written.put(name, Set.copyOf(entries)));
        this.writtenEntries = Map.copyOf(written);
    }

    /** Loads {@code service}'s settings: its defaults, then {@code sources}. */
    public static Settings load(String service, SettingsSources sources) {
        return SettingsGroup.load(List.of(service), sources).service(service);
    }

    /** {@code service}'s defaults alone. */
    public static Settings defaults(String service) {
        return load(service, SettingsSources.none());
    }

    public String service() {
        return schema.service();
    }

    /** What this service declares, in its defaults files' order. */
    Collection<SettingDeclaration> declarations() {
        return schema.declarations();
    }

    /** True when this service declares {@code name}. */
    public boolean has(String name) {
        return schema.find(name).isPresent();
    }

    /**
     * For an error about a value of {@code name} that may be meant for another service which reads the same name (a
     * Kafka monitor plugin in the {@code PLUGINS} the Redis monitor read too, in {@code standalone} or a shared settings
     * file): how to give each service its own, e.g. {@code ; kafka-monitor and redis-monitor both read PLUGINS: give one
     * alone its value as kafka-monitor.PLUGINS or redis-monitor.PLUGINS}. Empty when no other service declares it, or the value
     * was given to this service alone.
     */
    public String scopingHint(String name) {
        if (setAs.containsKey(name)) {
            return "";
        }
        List<String> readers = SettingsSchema.SERVICES.stream().filter(service -> SettingsSchema.load(service).find(name).isPresent())
                .toList();
        if (readers.size() < 2) {
            return "";
        }
        return "; " + String.join(" and ", readers) + (readers.size() == 2 ? " both" : " all") + " read " + name
                + ": give one alone its value as " + String.join(" or ", readers.stream().map(service -> service + "." + name).toList());
    }

    /** The layer {@code name}'s value came from. */
    public Layer layerOf(String name) {
        schema.get(name);
        return layers.getOrDefault(name, Layer.DEFAULT);
    }

    /** True when the override file, the environment or the command line set {@code name}. */
    public boolean isUserSet(String name) {
        return layerOf(name).isUser();
    }

    /** A copy in which the launcher has set {@code overrides} (names this service does not declare are skipped). */
    public Settings withLauncherValues(Map<String, ?> overrides) {
        Map<String, Object> newValues = new LinkedHashMap<>(values);
        Map<String, Layer> newLayers = new LinkedHashMap<>(layers);
        Map<String, String> newSetAs = new LinkedHashMap<>(setAs);
        Map<String, Set<String>> newWritten = new LinkedHashMap<>(writtenEntries);
        overrides.forEach((name, value) -> schema.find(name).ifPresent(declaration -> {
            Object converted = SettingsLoader.convert(declaration, value, Layer.LAUNCHER, null);
            newValues.put(name, converted);
            newLayers.put(name, Layer.LAUNCHER);
            newSetAs.remove(name);
            newWritten.put(name, SettingsLoader.entriesOf(converted));
        }));
        return new Settings(schema, newValues, newLayers, newSetAs, newWritten);
    }

    /** The value as stored: String, Integer, Long, Double, Boolean, List, Map, or null. */
    public Object get(String name) {
        schema.get(name);
        return values.get(name);
    }

    public String getString(String name) {
        return (String) required(name, SettingType.STRING);
    }

    public String getNullableString(String name) {
        return (String) typed(name, SettingType.STRING);
    }

    public int getInt(String name) {
        return (Integer) required(name, SettingType.INT);
    }

    /**
     * A port to listen on, 0 for any free one.
     *
     * @throws SettingsException when it is not from 0 to {@value Port#MAX}
     */
    public int getListenPort(String name) {
        int port = getInt(name);
        if (!Port.isListenable(port)) {
            throw invalid(name, "is " + port + "; use a port, or 0 for any free one");
        }
        return port;
    }

    public Integer getNullableInt(String name) {
        return (Integer) typed(name, SettingType.INT);
    }

    /** A long; an int setting widens. */
    public long getLong(String name) {
        return ((Number) required(name, SettingType.LONG, SettingType.INT)).longValue();
    }

    /** A double; an int or long setting widens. */
    public double getDouble(String name) {
        return ((Number) required(name, SettingType.DOUBLE, SettingType.INT, SettingType.LONG)).doubleValue();
    }

    public boolean getBoolean(String name) {
        return (Boolean) required(name, SettingType.BOOLEAN);
    }

    /**
     * A number of seconds (fractions allowed) as a duration.
     *
     * @throws SettingsException when it is more than a duration of nanoseconds holds (about 292 years)
     */
    public Duration getSeconds(String name) {
        double seconds = getDouble(name);
        if (Math.abs(seconds) * 1e9 >= Long.MAX_VALUE) {
            throw invalid(name, "is " + seconds + " seconds, more than any wait can be");
        }
        return Duration.ofNanos(Math.round(seconds * 1e9));
    }

    /** A list setting, each element as text. */
    public List<String> getStringList(String name) {
        return ((List<?>) required(name, SettingType.LIST)).stream().map(String::valueOf).toList();
    }

    /** A list setting whose elements are ints. */
    public List<Integer> getIntList(String name) {
        SettingDeclaration declaration = schema.get(name);
        if (declaration.elementType() != SettingType.INT) {
            throw new IllegalArgumentException("setting " + name + " is a " + declaration.typeName() + ", not a list of int");
        }
        return ((List<?>) required(name, SettingType.LIST)).stream().map(Integer.class::cast).toList();
    }

    /** A map setting; inner values are as YAML gave them, and may be null. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> getMap(String name) {
        return (Map<String, Object>) required(name, SettingType.MAP);
    }

    /**
     * True when {@code entry} of the map setting {@code name} is one of its declared default's that no layer above the
     * defaults wrote: an entry written for the same extension under another of its names replaces it (docs/extending.md,
     * "How an extension is loaded").
     */
    public boolean isDefaultEntry(String name, String entry) {
        return getMap(name).containsKey(entry) && !writtenEntries.getOrDefault(name, Set.of()).contains(entry);
    }

    /**
     * The place {@code value} gives the entry {@code entry} of the map setting {@code name} (a plugin's rank, a
     * pipeline's order): a whole number as YAML gave it, or as text ({@code +100} stays text when read).
     *
     * @param noun what the place is called in the error, "rank" or "order"
     * @throws SettingsException when it is not a whole number
     */
    public long getPlace(String name, String entry, Object value, String noun) {
        if (value instanceof Integer || value instanceof Long) {
            return ((Number) value).longValue();
        }
        if (value instanceof String text) {
            try {
                return Long.parseLong(text.trim());
            } catch (NumberFormatException e) {
                // refused below, as any other value
            }
        }
        throw invalid(name, "gives " + entry + " the " + noun + " '" + value + "'; " + (noun.startsWith("o") ? "an " : "a ")
                + noun + " is a whole number, or null to remove the entry");
    }

    /**
     * An error for a value that has the right type but cannot be used (a port out of range, an
     * unknown log level), naming the setting and the layer it came from.
     */
    public SettingsException invalid(String name, String problem) {
        return new SettingsException(invalidMessage(name, problem));
    }

    /** {@link #invalid(String, String)} for a problem that {@code cause} is behind (what a plugin named there threw). */
    public SettingsException invalid(String name, String problem, Throwable cause) {
        return new SettingsException(invalidMessage(name, problem), cause);
    }

    private String invalidMessage(String name, String problem) {
        return "Setting " + setAs.getOrDefault(name, name) + " (from " + layerOf(name).description() + ") " + problem;
    }

    @Override
    public String toString() {
        return "Settings[" + service() + "]";
    }

    private Object required(String name, SettingType... accepted) {
        Object value = typed(name, accepted);
        if (value == null) {
            throw invalid(name, "is null; a " + schema.get(name).typeName() + " is needed here");
        }
        return value;
    }

    private Object typed(String name, SettingType... accepted) {
        SettingDeclaration declaration = schema.get(name);
        for (SettingType type : accepted) {
            if (declaration.type() == type) {
                return values.get(name);
            }
        }
        throw new IllegalArgumentException("setting " + name + " is a " + declaration.typeName() + ", not a " + accepted[0].tag());
    }
}
