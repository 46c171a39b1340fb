package org.scrapycluster.common.extension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.scrapycluster.api.Extension;
import org.scrapycluster.common.logging.SaidOnce;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the extensions of one kind the way every service does. They are found as service providers of the kind's
 * interface ({@link ServiceListing}), on the service's class path and in the jars of the plugin folders
 * ({@link PluginFolders}), and known by {@link Extension#name()}; a setting may also name a class, which is then
 * loaded by that name. Each provider is constructed once, without arguments, and configured once when a setting
 * names it. A setting that names a listed class builds that provider alone; one that names an extension by its
 * name builds every provider to read the names, and a provider that cannot be loaded or constructed (a jar lacking a
 * class it needs) is then left out with a warning naming its class and jar, unless the name matches nothing, when the
 * error names it too. A setting that lists several ({@code ITEM_PIPELINES}, {@code LINK_FILTERS},
 * {@code DOWNLOADER_MIDDLEWARES}) maps names to orders, as the original's plugin dictionaries do: ascending order, a
 * null order removes an entry ({@link PlacedEntries}). An unknown name, null entry or not, two entries with one order,
 * two extensions of one kind with one name, and one extension class in two jars are start-up errors. One log line per
 * kind says what was loaded, once in the process: a start that checks its settings first, and several crawler nodes in
 * one {@code standalone}, load the same extensions again.
 *
 * @param <T> the kind
 */
public final class ExtensionLoader<T extends Extension> {

    private static final Logger LOG = LoggerFactory.getLogger(ExtensionLoader.class);
    /** What the closes share of the extensions configured before one of an ordered setting that cannot be. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
    /** The loadings this process has told, so that one done again is not told again. */
    private static final SaidOnce TOLD = new SaidOnce("loading");

    private final Class<T> kind;
    private final String kindName;
    private final Settings settings;
    private final ClassLoader classLoader;
    /** The built-ins by the original's module paths, which the settings may name them by. */
    private final Map<String, Class<? extends T>> originalNames;
    private final Set<String> warned = new HashSet<>();
    private List<ListedProvider<T>> listed;

    private ExtensionLoader(Class<T> kind, String kindName, Settings settings, Map<String, Class<? extends T>> originalNames) {
        this.kind = kind;
        this.kindName = kindName;
        this.settings = settings;
        this.classLoader = PluginFolders.classLoader(settings);
        this.originalNames = Map.copyOf(originalNames);
    }

    /**
     * The loader of {@code kind} for a service with {@code settings}.
     *
     * @param kindName what the kind is called in messages, plural ("item pipelines")
     */
    public static <T extends Extension> ExtensionLoader<T> of(Class<T> kind, String kindName, Settings settings) {
        return of(kind, kindName, settings, Map.of());
    }

    /**
     * The loader of {@code kind} for a service whose settings may also name its built-ins by the original's module paths
     * ({@code plugins.action_handler.ActionHandler}), as {@code originalNames} maps them to their classes.
     */
    public static <T extends Extension> ExtensionLoader<T> of(Class<T> kind, String kindName, Settings settings,
            Map<String, Class<? extends T>> originalNames) {
        return new ExtensionLoader<>(kind, kindName, settings, originalNames);
    }

    /**
     * Every extension of this kind that is found and can be built, by name, each constructed once (the same instance
     * on every call) and not configured. A provider that cannot be loaded or constructed is left out with a warning
     * naming its class and jar.
     *
     * @throws SettingsException when two have one name, one has no name, or one class is in several jars
     */
    public Map<String, T> available() {
        Map<String, T> found = new TreeMap<>();
        byName().forEach((name, provider) -> found.put(name, provider.instance()));
        return found;
    }

    /** The providers listed for this kind, read once. */
    private synchronized List<ListedProvider<T>> listed() {
        if (listed == null) {
            listed = ServiceListing.of(kind, classLoader).stream()
                    .map(entry -> new ListedProvider<>(kind, kindName, entry, classLoader)).toList();
        }
        return listed;
    }

    /** The providers that can be built, by name; one that cannot is left out, with a warning the first time. */
    private Map<String, ListedProvider<T>> byName() {
        Map<String, ListedProvider<T>> found = new TreeMap<>();
        for (ListedProvider<T> provider : listed()) {
            T extension;
            try {
                extension = provider.instance();
            } catch (SettingsException e) {
                if (warned.add(provider.className())) {
                    LOG.atWarn().addKeyValue("class", provider.className()).addKeyValue("jar", provider.jar())
                            .log(e.getMessage() + "; left out, as no setting names its class");
                }
                continue;
            }
            requireUsable(extension);
            ListedProvider<T> other = found.putIfAbsent(extension.name(), provider);
            if (other != null) {
                Class<?> first = other.instance().getClass();
                throw new SettingsException("Two " + kindName + " are called '" + extension.name() + "': "
                        + first.getName() + " (" + FoundExtension.sourceOf(first) + ") and "
                        + extension.getClass().getName() + " (" + FoundExtension.sourceOf(extension.getClass()) + "); take one of"
                        + " them out of the plugin folders, or rename one");
            }
        }
        return found;
    }

    /** The failures of the providers that cannot be built, for an error about a name that matches nothing; "" when none. */
    private String unbuilt() {
        List<String> failures = new ArrayList<>();
        for (ListedProvider<T> provider : listed()) {
            try {
                provider.instance();
            } catch (SettingsException e) {
                failures.add(e.getMessage());
            }
        }
        return failures.isEmpty() ? "" : "; and some cannot be built, which may be the one meant: " + String.join("; ", failures);
    }

    /** Refuses a listed extension that has no name ({@link #requireName}) or whose class is in several jars ({@link #requireOneJar}). */
    private void requireUsable(T extension) {
        requireName(extension);
        requireOneJar(extension);
    }

    /** Refuses an extension whose {@code name()} is null or blank: no setting could name it, and it would hide the others. */
    private void requireName(T extension) {
        String nameless = namelessness(extension);
        if (nameless != null) {
            throw new SettingsException(extension.getClass().getName() + " (" + FoundExtension.sourceOf(extension.getClass())
                    + "), listed as one of the " + kindName + ", has no name: " + nameless);
        }
    }

    /**
     * What is wrong with {@code extension}'s name ("its name() returns null", blank text, or what its {@code name()}
     * threw), or null when it has one.
     */
    private String namelessness(T extension) {
        String name;
        try {
            name = extension.name();
        } catch (Throwable e) {
            ExtensionFailures.rethrowIfFatal(e);
            return "its name() failed: " + ExtensionFailures.described(e);
        }
        return name == null || name.isBlank() ? "its name() returns " + (name == null ? "null" : "'" + name + "'") : null;
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
                jars.add(ServiceListing.pathOf(copy, classFile));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot look for " + classFile + " in the plugin jars", e);
        }
        if (jars.size() > 1) {
            throw new SettingsException("Several jars hold " + extension.getClass().getName() + ", of the " + kindName + " called '"
                    + extension.name() + "': " + String.join(", ", jars) + "; only the first would be loaded: remove the others");
        }
    }

    /**
     * The extension {@code setting} names with {@code name} (or a class name), configured.
     *
     * @throws SettingsException when there is none of that name, listing those there are
     */
    public T named(String setting, String name) {
        T extension = instance(setting, name);
        String source = FoundExtension.sourceOf(extension.getClass());
        if (TOLD.first("Loaded " + kindName + ": " + setting + "=" + extension.name() + " from " + source)) {
            LOG.atInfo().addKeyValue("setting", setting).addKeyValue("name", extension.name()).addKeyValue("source", source)
                    .log("Loaded " + kindName);
        }
        return extension;
    }

    /**
     * The extensions the map setting {@code setting} names, in ascending order, configured.
     *
     * @throws SettingsException as {@link #placed} does, or when one cannot be built or configured
     */
    public List<T> ordered(String setting) {
        List<PlacedEntry> entries = placed(setting, "order");
        List<T> loaded = new ArrayList<>();
        try {
            for (PlacedEntry entry : entries) {
                loaded.add(instance(setting, entry.name()));
            }
        } catch (RuntimeException e) {
            // those configured before it may hold what they opened: they are closed, as a stop closes them
            new ExtensionCloser<AutoCloseable>(LOG, kindName, closing -> ((Extension) closing).name()).closeAll(
                    loaded.stream().filter(AutoCloseable.class::isInstance).map(AutoCloseable.class::cast).toList(), CLOSE_WAIT);
            throw e;
        }
        String listing = entries.stream().map(entry -> entry.name() + "(" + entry.place() + ")").collect(Collectors.joining(", "));
        if (TOLD.first("Loaded " + kindName + ": " + setting + "=" + listing)) {
            LOG.atInfo().addKeyValue("setting", setting).addKeyValue("loaded", listing).log("Loaded " + kindName);
        }
        return List.copyOf(loaded);
    }

    /**
     * The entries of the map setting {@code setting} that stand, in ascending place, not yet built ({@link PlacedEntries}):
     * for {@link #ordered}, and for a setting whose caller builds and ranks its entries itself (a monitor's plugins).
     *
     * @param noun what a place is called in errors, "order" or "rank"
     * @throws SettingsException when a name, null entry or not, matches no extension, two entries written above the
     *         defaults name one extension, a place is not a whole number, or two entries have one place
     */
    public List<PlacedEntry> placed(String setting, String noun) {
        return PlacedEntries.of(settings, setting, noun, name -> target(setting, name).className());
    }

    /**
     * The one extension {@code setting} names by {@code nameOrClass}, configured, without a log line (for a
     * setting whose caller ranks its entries itself).
     *
     * @throws SettingsException when there is none of that name or class
     */
    public T instance(String setting, String nameOrClass) {
        return configured(setting, nameOrClass, target(setting, nameOrClass).instance().get());
    }

    /**
     * An extension a setting names: its class, and how to claim an instance of it, not configured (which builds it when
     * it is not built yet, and fails when it cannot be).
     */
    private record Target<E>(String className, Supplier<E> instance) {
    }

    /**
     * What {@code setting} names by {@code name}. A built-in's module path in the original stands for its class. A
     * provider listed under that class name is built alone, when claimed, and its failure is the setting's; otherwise
     * every provider is built to read its name ({@link #byName}).
     *
     * @throws SettingsException when {@code name} matches no extension of this kind
     */
    private Target<T> target(String setting, String name) {
        Class<? extends T> original = originalNames.get(name);
        String meant = original == null ? name : original.getName();
        for (ListedProvider<T> provider : listed()) {
            if (provider.className().equals(meant)) {
                return new Target<>(meant, () -> usable(setting, name, provider));
            }
        }
        Class<?> unlisted = meant.contains(".") ? unlistedClass(setting, meant) : null;
        if (unlisted != null) {
            requireKind(setting, meant, unlisted);
            return new Target<>(unlisted.getName(), () -> withName(setting, meant, byClass(setting, meant, unlisted)));
        }
        Map<String, ListedProvider<T>> available = byName();
        ListedProvider<T> provider = available.get(name);
        if (provider != null) {
            return new Target<>(provider.className(), provider::claim);
        }
        if (name.contains(".")) {
            throw settings.invalid(setting, "names " + name + ", which is neither one of the " + kindName + " ("
                    + String.join(", ", available.keySet()) + ") nor a class found" + unbuilt() + "; " + PluginFolders.searched(settings)
                    + settings.scopingHint(setting));
        }
        throw settings.invalid(setting, "names '" + name + "', but there are no " + kindName + " of that name; there are: "
                + String.join(", ", available.keySet()) + unbuilt() + "; " + PluginFolders.searched(settings) + settings.scopingHint(setting));
    }

    /**
     * The class {@code className}, which no service file lists, initialized; null when there is no such class.
     *
     * @throws SettingsException when the class is there but cannot be loaded, naming its jar
     */
    private Class<?> unlistedClass(String setting, String className) {
        try {
            return Class.forName(className, true, classLoader);
        } catch (ClassNotFoundException e) {
            return null;
        } catch (LinkageError e) {
            String classFile = className.replace('.', '/') + ".class";
            URL copy = classLoader.getResource(classFile);
            throw settings.invalid(setting, "names " + className
                    + (copy == null ? "" : " (" + ServiceListing.jarOf(copy, classFile) + ")") + ", which cannot be loaded: " + ExtensionFailures.described(e), e);
        }
    }

    /** An instance of {@code provider}, which {@code setting} names by {@code name}, once it is known to be usable. */
    private T usable(String setting, String name, ListedProvider<T> provider) {
        try {
            requireUsable(provider.instance());
            return provider.claim();
        } catch (SettingsException e) {
            throw settings.invalid(setting, "names " + name + ", which cannot be used: " + e.getMessage(),
                    e.getCause() == null ? e : e.getCause());
        }
    }

    /** Refuses {@code type}, which {@code setting} names by its class name {@code className}, unless it is of this kind. */
    private void requireKind(String setting, String className, Class<?> type) {
        if (!kind.isAssignableFrom(type)) {
            throw settings.invalid(setting, "names " + className + ", which does not implement " + kind.getName()
                    + settings.scopingHint(setting));
        }
    }

    /** {@code extension}, which {@code setting} names by its class name {@code className}, once it is known to have a name. */
    private T withName(String setting, String className, T extension) {
        String nameless = namelessness(extension);
        if (nameless != null) {
            throw settings.invalid(setting, "names " + className + ", which has no name: " + nameless);
        }
        return extension;
    }

    /** A new instance of {@code type}, of this kind, which {@code setting} names by its class name {@code className}. */
    private T byClass(String setting, String className, Class<?> type) {
        try {
            return kind.cast(type.getConstructor().newInstance());
        } catch (NoSuchMethodException | IllegalAccessException | InstantiationException e) {
            throw settings.invalid(setting, "names " + className + ", which " + ExtensionFailures.unconstructable(type));
        } catch (InvocationTargetException e) {
            ExtensionFailures.rethrowIfFatal(e.getCause());
            throw new SettingsException("The " + className + " named in " + setting + " failed to construct: " + ExtensionFailures.described(e.getCause()), e.getCause());
        } catch (LinkageError e) {
            throw new SettingsException("The " + className + " (" + FoundExtension.sourceOf(type) + ") named in " + setting
                    + " cannot be constructed: " + ExtensionFailures.described(e), e);
        }
    }

    private T configured(String setting, String name, T extension) {
        try {
            OwnClassLoader.call(extension, () -> {
                extension.configure(new SettingsView(settings));
                return null;
            });
        } catch (IllegalArgumentException e) {
            throw new SettingsException("The " + found(name, extension) + " named in " + setting + " refused its settings: "
                    + e.getMessage(), e);
        } catch (Throwable e) {
            ExtensionFailures.rethrowIfFatal(e);
            throw new SettingsException("The " + found(name, extension) + " named in " + setting + " failed to configure: "
                    + ExtensionFailures.described(e), e);
        }
        return extension;
    }

    /** {@code name} with the class it made and where that came from, so that a refusal says which jar to look into. */
    private static String found(String name, Object extension) {
        Class<?> type = extension.getClass();
        return name + " (" + (name.equals(type.getName()) ? "" : type.getName() + ", ") + FoundExtension.sourceOf(type) + ")";
    }
}
