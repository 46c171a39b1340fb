package org.scrapycluster.common.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Reads the fixture files under {@code src/test/resources} from the test class path. */
public final class ResourceFixtures {

    private ResourceFixtures() {
    }

    /** The UTF-8 text of the resource {@code name} (a path from the class-path root, without a leading slash). */
    public static String text(String name) {
        try (InputStream in = ResourceFixtures.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes the texts of the resources {@code names}, one after the other, to {@code file} (a PEM key store: a key, then
     * its certificate), and returns it.
     */
    public static Path write(Path file, String... names) {
        StringBuilder texts = new StringBuilder();
        for (String name : names) {
            texts.append(text(name));
        }
        try {
            return Files.writeString(file, texts);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The names of the entries of the resource directory {@code directory}, sorted. */
    public static List<String> list(String directory) {
        try (Stream<Path> entries = Files.list(Path.of(ResourceFixtures.class.getClassLoader().getResource(directory).toURI()))) {
            return entries.map(path -> path.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(directory, e);
        }
    }
}
