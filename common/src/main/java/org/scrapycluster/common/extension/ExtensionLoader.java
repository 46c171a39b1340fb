package org.scrapycluster.common.extension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.scrapycluster.api.Extension;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the extensions of one kind the way every service does. They are found as {@link ServiceLoader}
 * providers of the kind's interface, on the service's class path and in the jars of the plugin folders
 * ({@link PluginFolders}), and known by {@link Extension#name()}; a setting may also name a class, which is
 * then loaded by that name. Each is constructed without arguments and configured once. A setting that
 * lists several ({@code ITEM_PIPELINES}, {@code LINK_FILTERS}, {@code DOWNLOADER_MIDDLEWARES}) maps names to orders, as the original's
 * plugin dictionaries do: ascending order, a null order removes an entry. An unknown name, two entries with
 * one order, two extensions of one kind with one name, and one extension class in two jars are start-up errors. One log line per kind says
 * what was loaded.
 *
 * @param <T> the kind
 */
public final class ExtensionLoader<T extends Extension> {

    private static final Logger LOG = LoggerFactory.getLogger(ExtensionLoader.class);

    private final Class<T> kind;
    private final String kindName;
    private final Settings settings;
    private final ClassLoader classLoader;

    private ExtensionLoader(Class<T> kind, String kindName, Settings settings, ClassLoader classLoader) {
        this.kind = kind;
        this.kindName = kindName;
        this.settings = settings;
        this.classLoader = classLoader;
    }

    /**
     * The loader of {@code kind} for a service with {@code settings}.
     *
     * @param kindName what the kind is called in messages, plural ("item pipelines")
     */
    public static <T extends Extension> ExtensionLoader<T> of(Class<T> kind, String kindName, Settings settings) {
        return new ExtensionLoader<>(kind, kindName, settings, PluginFolders.classLoader(settings));
    }

    /**
     * Every extension of this kind that is found, by name, each newly constructed and not configured.
     *
     * @throws SettingsException when two have one name, or one cannot be constructed
     */
    public Map<String, T> available() {
        Map<String, T> found = new TreeMap<>();
        try {
            for (ServiceLoader.Provider<T> provider : ServiceLoader.load(kind, classLoader).stream().toList()) {
                T extension = provider.get();
                requireName(extension);
                requireOneJar(extension);
                T other = found.putIfAbsent(extension.name(), extension);
                if (other != null && other.getClass() != extension.getClass()) {
                    throw new SettingsException("Two " + kindName + " are called '" + extension.name() + "': "
                            + other.getClass().getName() + " (" + FoundExtension.sourceOf(other.getClass()) + ") and "
                            + extension.getClass().getName() + " (" + FoundExtension.sourceOf(extension.getClass()) + ")");
                }
            }
        } catch (ServiceConfigurationError e) {
            throw new SettingsException("Cannot load the " + kindName + ": " + e.getMessage(), e);
        }
        return found;
    }

    /** Refuses an extension whose {@code name()} is null or blank: no setting could name it, and it would hide the others. */
    private void requireName(T extension) {
        String name = extension.name();
        if (name == null || name.isBlank()) {
            throw new SettingsException(extension.getClass().getName() + " (" + FoundExtension.sourceOf(extension.getClass())
                    + "), listed as one of the " + kindName + ", has no name: its name() returns "
                    + (name == null ? "null" : "'" + name + "'"));
        }
    }

    /**
     * Refuses an extension whose class is in several jars (an upgrade that left the old jar beside the new one): the
     * class loader would take the first in name order, whichever version that is, without a word.
     */
    private void requireOneJar(T extension) {
        String classFile = extension.getClass().getName().replace('.', '/') + ".class";
        List<String> jars = new ArrayList<>();
        try {
            for (URL copy : Collections.list(classLoader.getResources(classFile))) {
                jars.add(jarOf(copy, classFile));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot look for " + classFile + " in the plugin jars", e);
        }
        if (jars.size() > 1) {
            throw new SettingsException("Several jars hold " + extension.getClass().getName() + ", of the " + kindName + " called '"
                    + extension.name() + "': " + String.join(", ", jars) + "; only the first would be loaded: remove the others");
        }
    }

    /** The file name of the jar (or the folder) {@code classFile} was found in, at {@code copy}. */
    private static String jarOf(URL copy, String classFile) {
        String location = copy.toString();
        String container = location.substring(0, location.length() - classFile.length()).replaceFirst("!?/$", "");
        return container.substring(container.lastIndexOf('/') + 1);
    }

    /**
     * The extension {@code setting} names with {@code name} (or a class name), configured.
     *
     * @throws SettingsException when there is none of that name, listing those there are
     */
    public T named(String setting, String name) {
        Map<String, T> available = available();
        T extension = configured(setting, name, resolve(setting, name, available));
        LOG.atInfo().addKeyValue("setting", setting).addKeyValue("name", extension.name())
                .addKeyValue("source", FoundExtension.sourceOf(extension.getClass())).log("Loaded " + kindName);
        return extension;
    }

    /**
     * The extensions the map setting {@code setting} names, in ascending order, configured.
     *
     * @throws SettingsException when a name is unknown, an order is not a whole number, or two entries have one order
     */
    public List<T> ordered(String setting) {
        Map<String, T> available = available();
        record Entry<E>(String name, long order, E extension) {
        }
        List<Entry<T>> entries = new ArrayList<>();
        Map<Long, String> orders = new HashMap<>();
        for (Map.Entry<String, Object> listed : settings.getMap(setting).entrySet()) {
            if (listed.getValue() == null) {
                continue;
            }
            String name = listed.getKey();
            if (!(listed.getValue() instanceof Integer || listed.getValue() instanceof Long)) {
                throw settings.invalid(setting, "gives " + name + " the order '" + listed.getValue()
                        + "'; an order is a whole number, or null to remove the entry");
            }
            long order = ((Number) listed.getValue()).longValue();
            String earlier = orders.putIfAbsent(order, name);
            if (earlier != null) {
                throw settings.invalid(setting, "gives the order " + order + " to both " + earlier + " and " + name
                        + "; every entry needs an order of its own");
            }
            entries.add(new Entry<>(name, order, resolve(setting, name, available)));
        }
        entries.sort(Comparator.comparingLong(Entry::order));
        List<T> loaded = new ArrayList<>();
        for (Entry<T> entry : entries) {
            loaded.add(configured(setting, entry.name(), entry.extension()));
        }
        LOG.atInfo().addKeyValue("setting", setting)
                .addKeyValue("loaded", entries.stream().map(entry -> entry.name() + "(" + entry.order() + ")").collect(Collectors.joining(", ")))
                .log("Loaded " + kindName);
        return List.copyOf(loaded);
    }

    /**
     * The one extension {@code setting} names by {@code nameOrClass}, configured, without a log line (for a
     * setting whose caller ranks its entries itself).
     *
     * @throws SettingsException when there is none of that name or class
     */
    public T instance(String setting, String nameOrClass) {
        return configured(setting, nameOrClass, resolve(setting, nameOrClass, available()));
    }

    private T resolve(String setting, String name, Map<String, T> available) {
        T extension = available.get(name);
        if (extension != null) {
            return extension;
        }
        for (T provided : available.values()) {
            if (provided.getClass().getName().equals(name)) {
                return provided;
            }
        }
        if (name.contains(".")) {
            return byClassName(setting, name);
        }
        throw settings.invalid(setting, "names '" + name + "', but there are no " + kindName + " of that name; there are: "
                + String.join(", ", available.keySet()));
    }

    private T byClassName(String setting, String className) {
        Class<?> type;
        try {
            type = Class.forName(className, true, classLoader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw settings.invalid(setting, "names " + className + ", which is neither one of the " + kindName + " ("
                    + String.join(", ", available().keySet()) + ") nor a class found (" + e + ")");
        }
        if (!kind.isAssignableFrom(type)) {
            throw settings.invalid(setting, "names " + className + ", which does not implement " + kind.getName());
        }
        try {
            return kind.cast(type.getConstructor().newInstance());
        } catch (NoSuchMethodException | IllegalAccessException | InstantiationException e) {
            throw settings.invalid(setting, "names " + className + ", which has no public constructor without arguments");
        } catch (InvocationTargetException e) {
            throw new SettingsException("The " + className + " named in " + setting + " failed to construct: " + e.getCause(), e.getCause());
        }
    }

    private T configured(String setting, String name, T extension) {
        try {
            extension.configure(new SettingsView(settings));
        } catch (IllegalArgumentException e) {
            throw new SettingsException("The " + name + " named in " + setting + " refused its settings: " + e.getMessage(), e);
        } catch (Throwable e) {
            ExtensionFailures.rethrowIfFatal(e);
            throw new SettingsException("The " + name + " named in " + setting + " failed to configure: " + e, e);
        }
        return extension;
    }
}
