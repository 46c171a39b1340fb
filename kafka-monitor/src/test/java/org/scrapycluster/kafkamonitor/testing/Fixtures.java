package org.scrapycluster.kafkamonitor.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The request fixtures shared with the schema tests ({@code requests/valid}, {@code requests/invalid}). */
public final class Fixtures {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Fixtures() {
    }

    /** The file names in the fixture directory {@code directory}, sorted. */
    public static List<String> names(String directory) {
        URL url = Fixtures.class.getClassLoader().getResource(directory);
        if (url == null) {
            throw new IllegalArgumentException("no fixture directory " + directory);
        }
        try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The fixture {@code path} as JSON. */
    public static JsonNode read(String path) {
        try (InputStream in = Fixtures.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + path);
            }
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
