package org.scrapycluster.common.extension;

import java.lang.reflect.InvocationTargetException;

import org.scrapycluster.api.Extension;
import org.scrapycluster.common.settings.SettingsException;

/**
 * One provider of a kind as its jar lists it ({@link ServiceListing}), loaded and constructed at most once, when it is
 * first asked for: its class by {@link #type()}, without running any of its code, its instance by {@link #instance()}.
 * Whatever loading or constructing it throws — a class its jar lacks ({@link NoClassDefFoundError} and the other
 * {@link LinkageError}s), a constructor that throws, no public constructor without arguments — becomes a
 * {@link SettingsException} naming the class and its jar, the same one each time it is asked for again. Only the JVM
 * itself failing goes on up ({@link ExtensionFailures}).
 *
 * @param <T> the kind
 */
final class ListedProvider<T extends Extension> {

    private final Class<T> kind;
    private final String kindName;
    private final ServiceListing.Listed listed;
    private final ClassLoader classLoader;
    private Class<? extends T> type;
    private T built;
    private boolean claimed;
    private SettingsException failure;

    ListedProvider(Class<T> kind, String kindName, ServiceListing.Listed listed, ClassLoader classLoader) {
        this.kind = kind;
        this.kindName = kindName;
        this.listed = listed;
        this.classLoader = classLoader;
    }

    /** The class name as listed. */
    String className() {
        return listed.className();
    }

    /** The jar that lists it. */
    String jar() {
        return listed.jar();
    }

    /**
     * Its class, loaded without being initialized.
     *
     * @throws SettingsException when it cannot be loaded or is not of the kind
     */
    synchronized Class<? extends T> type() {
        if (type == null && failure == null) {
            try {
                Class<?> loaded = Class.forName(className(), false, classLoader);
                if (!kind.isAssignableFrom(loaded)) {
                    failure = failed("does not implement " + kind.getName(), null);
                } else {
                    type = loaded.asSubclass(kind);
                }
            } catch (ClassNotFoundException e) {
                failure = failed("cannot be found: " + e, e);
            } catch (Throwable e) {
                ExtensionFailures.rethrowIfFatal(e);
                failure = failed("cannot be loaded: " + ExtensionFailures.described(e), e);
            }
        }
        if (failure != null) {
            throw failure;
        }
        return type;
    }

    /**
     * Its instance, constructed on the first call and the same on every other, not configured: what the loader reads
     * its name from.
     *
     * @throws SettingsException when it cannot be loaded or constructed
     */
    synchronized T instance() {
        if (built == null) {
            built = construct();
        }
        return built;
    }

    /**
     * An instance to configure and use: the one {@link #instance()} made, the first time; a new one each time after, for
     * a setting that names it twice.
     */
    synchronized T claim() {
        if (claimed) {
            return construct();
        }
        T instance = instance();
        claimed = true;
        return instance;
    }

    private T construct() {
        Class<? extends T> loaded = type();
        try {
            return loaded.getConstructor().newInstance();
        } catch (NoSuchMethodException | IllegalAccessException | InstantiationException e) {
            failure = failed(ExtensionFailures.unconstructable(loaded), e);
        } catch (InvocationTargetException e) {
            ExtensionFailures.rethrowIfFatal(e.getCause());
            failure = failed("failed to construct: " + ExtensionFailures.described(e.getCause()), e.getCause());
        } catch (Throwable e) {
            ExtensionFailures.rethrowIfFatal(e);
            failure = failed("cannot be constructed: " + ExtensionFailures.described(e), e);
        }
        throw failure;
    }

    private SettingsException failed(String what, Throwable cause) {
        return new SettingsException(className() + " (" + jar() + "), listed as one of the " + kindName + ", " + what, cause);
    }
}
