package org.scrapycluster.common.extension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import org.scrapycluster.common.file.UnreadableFile;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsException;

/**
 * The folders extension jars are loaded from: those of {@code SC_PLUGIN_PATH} ({@code :}-separated; the
 * launcher puts its own {@code plugins/} first, the Docker image {@code /opt/scrapy-cluster/plugins}), then
 * those of the {@code PLUGIN_DIRS} setting. A folder that does not exist is skipped. Every {@code *.jar}
 * directly in a folder is loaded, in name order, through one {@link PluginClassLoader} per set of folders,
 * shared by the services of one JVM. Folders and jars are known by their real paths, so that a jar reached twice (a
 * folder named again through a link) is one jar, loaded once. Since the jars share the class loader, a class two of
 * them hold in different versions (a library two plugins bundle at different versions, an old jar left beside its new
 * one) is refused: the loader would give every plugin the first jar's, and the other's would fail as it ran
 * ({@code NoSuchMethodError}).
 */
public final class PluginFolders {

    /** The environment variable listing plugin folders. */
    public static final String PATH_VARIABLE = "SC_PLUGIN_PATH";
    /** The name of the class loader of the plugin folders' jars, as a stack frame of their classes tells it. */
    public static final String LOADER_NAME = "scrapy-cluster-plugins";
    /** Where a jar's service files of the extension kinds start: {@code org.scrapycluster.api.Spider} and the others. */
    private static final String SERVICE_FILES = "META-INF/services/org.scrapycluster.";

    private static final Map<List<Path>, ClassLoader> LOADERS = new ConcurrentHashMap<>();

    /** The links followed at most to the file a link to a jar that is gone leads to, as the kernel's own limit. */
    private static final int MOST_LINKS = 40;

    private PluginFolders() {
    }

    /** The plugin folders {@code settings} and the environment name, by their real paths, without repeats. */
    public static List<Path> folders(Settings settings) {
        LinkedHashSet<Path> folders = new LinkedHashSet<>();
        String path = System.getenv(PATH_VARIABLE);
        if (path != null) {
            Arrays.stream(path.split(":")).filter(entry -> !entry.isBlank()).map(entry -> real(Path.of(entry))).forEach(folders::add);
        }
        if (settings.has("PLUGIN_DIRS")) {
            settings.getStringList("PLUGIN_DIRS").forEach(entry -> folders.add(real(Path.of(entry))));
        }
        return List.copyOf(folders);
    }

    /**
     * The jars of {@code folders}, folder by folder, in name order, each once by its real path; an entry that names a jar
     * itself is that jar. A link to a jar that is gone, an entry or in a folder, is kept, to be refused by name as a jar
     * that cannot be read.
     */
    public static List<Path> jars(List<Path> folders) {
        LinkedHashSet<Path> jars = new LinkedHashSet<>();
        for (Path folder : folders) {
            if (isJar(folder) || isLinkToAJarThatIsGone(folder)) {
                jars.add(real(folder));
                continue;
            }
            if (!Files.isDirectory(folder)) {
                continue;
            }
            try (Stream<Path> entries = Files.list(folder)) {
                entries.filter(entry -> entry.getFileName().toString().endsWith(".jar") && !Files.isDirectory(entry))
                        .sorted().map(PluginFolders::real).forEach(jars::add);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot list the plugin folder " + folder, e);
            }
        }
        return List.copyOf(jars);
    }

    /** {@code path} with every link resolved; absolute and normalized only when it does not exist (a folder missing, a link gone). */
    private static Path real(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path.toAbsolutePath().normalize();
        }
    }

    private static boolean isLinkToAJarThatIsGone(Path entry) {
        return entry.getFileName().toString().endsWith(".jar") && Files.isSymbolicLink(entry) && !Files.exists(entry);
    }

    /**
     * What the link to a jar that is gone points at, through any links it leads through, to the path that does not exist:
     * its own path does not say why it cannot be read.
     */
    private static String linkToNothing(Path link) {
        try {
            Path target = Files.readSymbolicLink(link);
            Path missing = link.resolveSibling(target);
            for (int hops = 0; hops < MOST_LINKS && Files.isSymbolicLink(missing); hops++) {
                missing = missing.resolveSibling(Files.readSymbolicLink(missing));
            }
            return "it is a link to " + target + (missing.equals(link.resolveSibling(target)) ? "" : ", which leads to " + missing)
                    + ", which does not exist";
        } catch (IOException e) {
            return "it is a link to a file that does not exist";
        }
    }

    /**
     * {@code folder} as the user is told of it: {@code <folder> (N jars)}, naming those of its jars that list no extension
     * in a {@code META-INF/services} file (a plugin built without its service file, whose extensions no service finds by
     * name, or a library); {@code <jar> (a jar)} for an entry that names a jar, and what its link points at for a link to
     * a jar that is gone; {@code <folder> (missing)} when it does not exist, {@code <file> (neither a folder nor a jar)}
     * for another file.
     */
    public static String describe(Path folder) {
        if (isJar(folder)) {
            return folder + (listsNoExtension(folder) ? " (a jar listing no extension in META-INF/services)" : " (a jar)");
        }
        if (isLinkToAJarThatIsGone(folder)) {
            return folder + " (a jar that cannot be read: " + linkToNothing(folder) + ")";
        }
        if (!Files.isDirectory(folder)) {
            return folder + (Files.exists(folder) ? " (neither a folder nor a jar)" : " (missing)");
        }
        List<Path> jars = jars(List.of(folder));
        List<String> listingNone = jars.stream().filter(PluginFolders::listsNoExtension).map(jar -> jar.getFileName().toString()).toList();
        return folder + " (" + jars.size() + (jars.size() == 1 ? " jar" : " jars")
                + (listingNone.isEmpty() ? "" : "; listing no extension in META-INF/services: " + String.join(", ", listingNone)) + ")";
    }

    private static boolean isJar(Path entry) {
        return Files.isRegularFile(entry) && entry.getFileName().toString().endsWith(".jar");
    }

    /** Whether {@code jar} holds no service file of an extension kind; one that cannot be read is refused by name elsewhere. */
    private static boolean listsNoExtension(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.stream().noneMatch(entry -> !entry.isDirectory() && entry.getName().startsWith(SERVICE_FILES));
        } catch (IOException e) {
            return false;
        }
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
        return LOADERS.computeIfAbsent(jars, key -> {
            requireOneVersionOfEachClass(key);
            return new PluginClassLoader(key.stream().map(PluginFolders::url).toList(), service);
        });
    }

    /**
     * Refuses a jar that does not open as one (a class loader skips it, and its extensions go missing unexplained), and two
     * jars that hold one class, other than those that always come from the service, in different versions (its bytes
     * differ).
     */
    private static void requireOneVersionOfEachClass(List<Path> jars) {
        Map<String, ClassCopy> firstCopies = new HashMap<>();
        for (Path jar : jars) {
            try (JarFile file = new JarFile(jar.toFile())) {
                for (JarEntry entry : Collections.list(file.entries())) {
                    String name = entry.getName();
                    if (!name.endsWith(".class") || name.startsWith("META-INF/") || name.endsWith("module-info.class")
                            || PluginClassLoader.fromService(name.replace('/', '.'))) {
                        continue;
                    }
                    ClassCopy copy = new ClassCopy(jar, entry.getCrc(), entry.getSize());
                    ClassCopy first = firstCopies.putIfAbsent(name, copy);
                    if (first != null && !first.sameBytes(copy)) {
                        String className = name.substring(0, name.length() - ".class".length()).replace('/', '.');
                        throw new SettingsException("The plugin jars " + first.jar() + " and " + jar + " hold different versions of "
                                + className + "; every plugin would get the first: remove the jar that is not wanted (an old"
                                + " version), or shade the library the class belongs to into a package of its plugin's own");
                    }
                }
            } catch (IOException e) {
                throw new SettingsException("The plugin jar " + jar + " cannot be read ("
                        + (isLinkToAJarThatIsGone(jar) ? linkToNothing(jar) : UnreadableFile.reason(e))
                        + "); replace it with a whole copy or remove it");
            }
        }
    }

    /** Where a class was found first, and what its bytes were. */
    private record ClassCopy(Path jar, long crc, long size) {

        boolean sameBytes(ClassCopy other) {
            return crc == other.crc && size == other.size;
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
