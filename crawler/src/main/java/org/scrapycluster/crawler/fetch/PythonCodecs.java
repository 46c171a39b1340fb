package org.scrapycluster.crawler.fetch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Charset labels resolved as w3lib's {@code resolve_encoding} resolves them, to the Python codec names Scrapy
 * reports and the Java charsets that decode them. The tables are generated from CPython's {@code encodings}
 * package and w3lib's translation table (which reads latin-1 and ascii as cp1252, as browsers do).
 */
final class PythonCodecs {

    private static final Map<String, String> ALIASES = read("encoding-aliases.tsv");
    private static final Map<String, Charset> CHARSETS = charsets(read("python-codecs.tsv"));

    private PythonCodecs() {
    }

    /** The encoding a label names, when Python and Java both know it as a text encoding. */
    static Optional<DetectedEncoding> resolve(String label) {
        String python = ALIASES.get(normalize(label));
        if (python == null) {
            return Optional.empty();
        }
        return Optional.of(new DetectedEncoding(python, CHARSETS.get(python)));
    }

    /** The encoding of a Python codec name. */
    static DetectedEncoding byPythonName(String python) {
        Charset charset = CHARSETS.get(python);
        if (charset == null) {
            throw new IllegalArgumentException("not a known Python text codec: " + python);
        }
        return new DetectedEncoding(python, charset);
    }

    /**
     * Python's {@code encodings.normalize_encoding(label).lower()}: runs of characters other than letters,
     * digits and dots become one underscore, leading and trailing ones vanish, non-ASCII letters are dropped.
     */
    static String normalize(String label) {
        StringBuilder out = new StringBuilder(label.length());
        boolean punctuation = false;
        for (int i = 0; i < label.length(); i++) {
            char c = label.charAt(i);
            if (Character.isLetterOrDigit(c) || c == '.') {
                if (punctuation && !out.isEmpty()) {
                    out.append('_');
                }
                if (c < 0x80) {
                    out.append(Character.toLowerCase(c));
                }
                punctuation = false;
            } else {
                punctuation = true;
            }
        }
        return out.toString();
    }

    private static Map<String, String> read(String resource) {
        Map<String, String> table = new HashMap<>();
        try (InputStream in = PythonCodecs.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource + " next to " + PythonCodecs.class);
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    int tab = line.indexOf('\t');
                    table.put(line.substring(0, tab), line.substring(tab + 1));
                }
            }
            return Map.copyOf(table);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    private static Map<String, Charset> charsets(Map<String, String> javaNames) {
        Map<String, Charset> charsets = new HashMap<>();
        javaNames.forEach((python, java) -> charsets.put(python, Charset.forName(java)));
        return Map.copyOf(charsets);
    }
}
