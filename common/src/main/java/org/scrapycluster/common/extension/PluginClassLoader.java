package org.scrapycluster.common.extension;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;

/**
 * The class loader of the plugin folders' jars. A plugin's own classes and the libraries it bundles are
 * looked up in its jars first, so they may differ from the service's; the JDK, the extension API and the
 * rest of Scrapy Cluster, SLF4J, Jackson and Lettuce always come from the service, so that a plugin's {@code Spider} is
 * the service's {@code Spider}, the {@code ObjectNode} a Kafka monitor plugin is handed is the one it reads, and the
 * Redis commands of a Redis monitor plugin's connection are the ones it calls.
 */
final class PluginClassLoader extends URLClassLoader {

    private static final List<String> FROM_SERVICE = List.of("java.", "javax.", "jdk.", "sun.", "org.scrapycluster.", "org.slf4j.",
            "com.fasterxml.jackson.", "io.lettuce.");

    static {
        registerAsParallelCapable();
    }

    /** Whether the class {@code name} always comes from the service, whatever the plugin jars hold. */
    static boolean fromService(String name) {
        return FROM_SERVICE.stream().anyMatch(name::startsWith);
    }

    PluginClassLoader(List<URL> jars, ClassLoader service) {
        super(PluginFolders.LOADER_NAME, jars.toArray(URL[]::new), service);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (fromService(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> type = findLoadedClass(name);
            if (type == null) {
                try {
                    type = findClass(name);
                } catch (ClassNotFoundException notInPlugins) {
                    return super.loadClass(name, resolve);
                }
            }
            if (resolve) {
                resolveClass(type);
            }
            return type;
        }
    }
}
