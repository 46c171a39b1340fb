package org.scrapycluster.common.extension;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;

/**
 * An extension found, as {@code scrapy-cluster plugins} lists it.
 *
 * @param kind the kind ({@code spider}, {@code item pipeline}, …)
 * @param name its name
 * @param type its class
 */
public record FoundExtension(String kind, String name, Class<?> type) {

    /** The file name of the jar (or the folder) the class came from, or {@code built-in} when it is not known. */
    public String source() {
        return sourceOf(type);
    }

    /** The Implementation-Version of the class's jar, or {@code -} when it has none. */
    public String version() {
        Package owner = type.getPackage();
        String version = owner == null ? null : owner.getImplementationVersion();
        return version == null ? "-" : version;
    }

    static String sourceOf(Class<?> type) {
        CodeSource code = type.getProtectionDomain().getCodeSource();
        if (code == null || code.getLocation() == null) {
            return "built-in";
        }
        try {
            Path path = Path.of(code.getLocation().toURI());
            return path.getFileName() == null ? path.toString() : path.getFileName().toString();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return code.getLocation().toString();
        }
    }
}
