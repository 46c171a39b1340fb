package org.scrapycluster.common.extension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;

/**
 * The folders extension jars are loaded from: those of {@code SC_PLUGIN_PATH} ({@code :}-separated; the
 * launcher puts its own {@code plugins/} first, the Docker image {@code /opt/scrapy-cluster/plugins}), then
 * those of the {@code PLUGIN_DIRS} setting. A folder that does not exist is skipped. Every {@code *.jar}
 * directly in a folder is loaded, in name order, through one {@link PluginClassLoader} per set of folders,
 * shared by the services of one JVM.
 */
public final class PluginFolders {

    /** The environment variable listing plugin folders. */
    public static final String PATH_VARIABLE = "SC_PLUGIN_PATH";

    private static final Map<List<Path>, ClassLoader> LOADERS = new ConcurrentHashMap<>();

    private PluginFolders() {
    }

    /** The plugin folders {@code settings} and the environment name, without repeats. */
    public static List<Path> folders(Settings settings) {
        LinkedHashSet<Path> folders = new LinkedHashSet<>();
        String path = System.getenv(PATH_VARIABLE);
        if (path != null) {
            Arrays.stream(path.split(":")).filter(entry -> !entry.isBlank()).map(entry -> Path.of(entry).toAbsolutePath().normalize())
                    .forEach(folders::add);
        }
        if (settings.has("PLUGIN_DIRS")) {
            settings.getStringList("PLUGIN_DIRS").forEach(entry -> folders.add(Path.of(entry).toAbsolutePath().normalize()));
        }
        return List.copyOf(folders);
    }

    /** The jars of {@code folders}, folder by folder, in name order. */
    public static List<Path> jars(List<Path> folders) {
        List<Path> jars = new ArrayList<>();
        for (Path folder : folders) {
            if (!Files.isDirectory(folder)) {
                continue;
            }
            try (Stream<Path> entries = Files.list(folder)) {
                entries.filter(entry -> entry.getFileName().toString().endsWith(".jar") && Files.isRegularFile(entry))
                        .sorted().forEach(jars::add);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot list the plugin folder " + folder, e);
            }
        }
        return jars;
    }

    /** {@code folder} as the user is told of it: {@code <folder> (N jars)}, or {@code <folder> (missing)} when it does not exist. */
    public static String describe(Path folder) {
        return folder + (Files.isDirectory(folder) ? " (" + jars(List.of(folder)).size() + " jars)" : " (missing)");
    }

    /** The plugin folders of {@code settings}, described ({@link #describe}), for an error about an extension not found. */
    static String searched(Settings settings) {
        List<Path> folders = folders(settings);
        return folders.isEmpty() ? "no plugin folder is set (" + PATH_VARIABLE + ", PLUGIN_DIRS)"
                : "plugin folders searched: " + String.join(", ", folders.stream().map(PluginFolders::describe).toList());
    }

    /**
     * The class loader of the jars in the plugin folders of {@code settings}: the service's own when there are none.
     *
     * @throws SettingsException when a jar cannot be read, which the class loader would skip without a word
     */
    public static ClassLoader classLoader(Settings settings) {
        List<Path> jars = jars(folders(settings));
        ClassLoader service = PluginFolders.class.getClassLoader();
        if (jars.isEmpty()) {
            return service;
        }
        return LOADERS.computeIfAbsent(jars, key -> new PluginClassLoader(
                key.stream().map(PluginFolders::readable).map(PluginFolders::url).toList(), service));
    }

    /** {@code jar}, once it opens as a jar: a class loader skips one that does not, and its extensions go missing unexplained. */
    private static Path readable(Path jar) {
        try {
            new JarFile(jar.toFile()).close();
            return jar;
        } catch (IOException e) {
            throw new SettingsException("The plugin jar " + jar + " cannot be read (" + e.getMessage()
                    + "); replace it with a whole copy or remove it");
        }
    }

    private static URL url(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("Not a usable jar path: " + jar, e);
        }
    }
}
