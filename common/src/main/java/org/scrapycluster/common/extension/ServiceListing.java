package org.scrapycluster.common.extension;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The providers of a kind as the jars list them, read the way {@link java.util.ServiceLoader} reads them on a class path
 * ({@code META-INF/services/<interface name>}: one class name a line, {@code #} starting a comment, a class listed twice
 * taken once, first where first listed), but without loading a class: each comes with the jar that lists it, so that a
 * class that cannot be loaded is named with its jar, and a setting that names a class finds it without loading the
 * others (docs/extending.md, "How an extension is loaded").
 */
final class ServiceListing {

    private ServiceListing() {
    }

    /**
     * A provider listed: its class name and the file name of the jar (or folder) whose service file lists it.
     *
     * @param className as listed
     * @param jar       where it is listed
     */
    record Listed(String className, String jar) {
    }

    /** The providers of {@code kind} that {@code classLoader} sees listed, in the order it finds them. */
    static List<Listed> of(Class<?> kind, ClassLoader classLoader) {
        String file = "META-INF/services/" + kind.getName();
        Set<String> seen = new LinkedHashSet<>();
        List<Listed> listed = new ArrayList<>();
        try {
            for (URL list : Collections.list(classLoader.getResources(file))) {
                String jar = jarOf(list, file);
                for (String className : classNames(list)) {
                    if (seen.add(className)) {
                        listed.add(new Listed(className, jar));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the service lists " + file, e);
        }
        return List.copyOf(listed);
    }

    private static List<String> classNames(URL list) throws IOException {
        List<String> names = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(list.openStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                int comment = line.indexOf('#');
                String name = (comment < 0 ? line : line.substring(0, comment)).strip();
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    /** The file name of the jar (or the folder) {@code path} was found in, at {@code copy}. */
    static String jarOf(URL copy, String path) {
        String container = containerOf(copy, path);
        return container.substring(container.lastIndexOf('/') + 1);
    }

    /**
     * The full path of the jar (or the folder) {@code path} was found in, at {@code copy}, for an error that must tell two
     * jars of one name apart; its URL when it is not a file.
     */
    static String pathOf(URL copy, String path) {
        String container = containerOf(copy, path);
        try {
            return Path.of(URI.create(container.startsWith("jar:") ? container.substring("jar:".length()) : container)).toString();
        } catch (IllegalArgumentException | FileSystemNotFoundException e) {
            return container;
        }
    }

    /** The URL of the jar (or the folder) {@code path} was found in, at {@code copy}. */
    private static String containerOf(URL copy, String path) {
        String location = copy.toString();
        return location.substring(0, location.length() - path.length()).replaceFirst("!?/$", "");
    }
}
