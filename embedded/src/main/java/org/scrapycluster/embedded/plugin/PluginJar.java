package org.scrapycluster.embedded.plugin;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A plugin jar built in a test: Java sources compiled against the test's class path, service lists
 * ({@code META-INF/services/<interface>}) and resources, written as {@code <name>.jar} into a folder. Its
 * classes are on no class path but that jar's.
 */
public final class PluginJar {

    private final String name;
    private final Map<String, String> sources = new LinkedHashMap<>();
    private final Map<String, String> resources = new LinkedHashMap<>();
    private final Set<String> leftOut = new HashSet<>();

    private PluginJar(String name) {
        this.name = name;
    }

    /** A jar to be written as {@code <name>.jar}. */
    public static PluginJar named(String name) {
        return new PluginJar(name);
    }

    /** Adds the class {@code className} (fully qualified) with its source {@code code}. */
    public PluginJar source(String className, String code) {
        sources.put(className, code);
        return this;
    }

    /**
     * Compiles the class {@code className} (fully qualified, one of the sources) but leaves it out of the jar: a jar
     * built against a library it does not bundle, whose classes fail with {@link NoClassDefFoundError} when they need it.
     */
    public PluginJar leaveOut(String className) {
        leftOut.add(className.replace('.', '/') + ".class");
        return this;
    }

    /** Lists {@code implementation} as a provider of the service interface {@code service}. */
    public PluginJar service(String service, String implementation) {
        String path = "META-INF/services/" + service;
        resources.merge(path, implementation + "\n", String::concat);
        return this;
    }

    /** Adds the resource {@code path} holding {@code text}. */
    public PluginJar resource(String path, String text) {
        resources.put(path, text);
        return this;
    }

    /**
     * Compiles the sources and writes the jar into {@code folder}, with Implementation-Version {@code version}.
     *
     * @return the jar
     * @throws IllegalStateException when the sources do not compile
     */
    public Path writeTo(Path folder, String version) {
        try {
            Path work = Files.createTempDirectory(folder.getParent() == null ? folder : folder.getParent(), "plugin-src");
            Path classes = Files.createDirectories(work.resolve("classes"));
            List<String> arguments = new ArrayList<>(List.of("-d", classes.toString(), "-cp", System.getProperty("java.class.path"),
                    "--release", "21", "-proc:none"));
            for (Map.Entry<String, String> source : sources.entrySet()) {
                Path file = work.resolve("src").resolve(source.getKey().replace('.', '/') + ".java");
                Files.createDirectories(file.getParent());
                Files.writeString(file, source.getValue());
                arguments.add(file.toString());
            }
            JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
            ByteArrayOutputStream errors = new ByteArrayOutputStream();
            if (compiler.run(null, errors, errors, arguments.toArray(String[]::new)) != 0) {
                throw new IllegalStateException("The plugin sources do not compile:\n" + errors.toString(StandardCharsets.UTF_8));
            }
            Files.createDirectories(folder);
            Path jar = folder.resolve(name + ".jar");
            Manifest manifest = new Manifest();
            manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            manifest.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_VERSION, version);
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
                    Stream<Path> files = Files.walk(classes)) {
                for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                    String path = classes.relativize(file).toString().replace('\\', '/');
                    if (!leftOut.contains(path)) {
                        write(out, path, Files.readAllBytes(file));
                    }
                }
                for (Map.Entry<String, String> resource : resources.entrySet()) {
                    write(out, resource.getKey(), resource.getValue().getBytes(StandardCharsets.UTF_8));
                }
            }
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the plugin jar " + name, e);
        }
    }

    private static void write(JarOutputStream out, String path, byte[] content) throws IOException {
        out.putNextEntry(new JarEntry(path));
        out.write(content);
        out.closeEntry();
    }
}
