package org.scrapycluster.services;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;

/** The deployment files at the repository's root, as the tests of this module read them. */
final class RepositoryFiles {

    private RepositoryFiles() {
    }

    /** The repository's root: the nearest folder above the working directory with a docker-compose.yml. */
    static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("docker-compose.yml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no docker-compose.yml above " + Path.of("").toAbsolutePath());
    }

    static String read(String path) {
        try {
            return Files.readString(root().resolve(path));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every document of a YAML file, with Compose's {@code !override} and {@code !reset} read as plain nodes. */
    static List<Object> yamlDocuments(Path file) {
        LoaderOptions options = new LoaderOptions();
        SafeConstructor constructor = new SafeConstructor(options) {
            {
                yamlConstructors.put(new Tag("!override"), yamlConstructors.get(Tag.SEQ));
                yamlConstructors.put(new Tag("!reset"), yamlConstructors.get(Tag.SEQ));
            }
        };
        try {
            String text = Files.readString(file);
            List<Object> documents = new ArrayList<>();
            new Yaml(constructor).loadAll(text).forEach(documents::add);
            documents.removeIf(Objects::isNull);
            return documents;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A one-document YAML file as a map. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> yamlMap(String path) {
        List<Object> documents = yamlDocuments(root().resolve(path));
        if (documents.size() != 1) {
            throw new IllegalStateException(path + " has " + documents.size() + " documents");
        }
        return (Map<String, Object>) documents.get(0);
    }

    /**
     * The node at {@code keys} of a one-document YAML file, with its tag ({@code !reset}, {@code !override}) as
     * written, or null when a key is missing.
     */
    static Node yamlNode(String path, String... keys) {
        Node node = new Yaml().compose(new StringReader(read(path)));
        for (String key : keys) {
            if (!(node instanceof MappingNode mapping)) {
                return null;
            }
            node = mapping.getValue().stream().filter(t -> t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key))
                    .map(NodeTuple::getValueNode).findFirst().orElse(null);
        }
        return node;
    }

    /** The names of every setting declared in config/*.yml (each file's top-level keys but include). */
    static TreeSet<String> declaredSettings() {
        TreeSet<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.list(root().resolve("config"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yml")).toList()) {
                names.addAll(yamlMap(root().relativize(file).toString()).keySet());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        names.remove("include");
        return names;
    }

    /** The {@code NAME=VALUE} lines of an env file, comments and blank lines left out. */
    static Map<String, String> envFile(Path file) {
        Map<String, String> entries = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                String trimmed = line.strip();
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                int equals = trimmed.indexOf('=');
                if (equals < 1) {
                    throw new IllegalStateException(file + ": not NAME=VALUE: " + line);
                }
                entries.put(trimmed.substring(0, equals), trimmed.substring(equals + 1));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return entries;
    }
}
