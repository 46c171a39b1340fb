package org.scrapycluster.common.url;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Reads the JSON fixture tables under {@code src/test/resources/url}. */
final class UrlFixtures {

    /** One row of {@code canonical-urls.json}: a URL, its canonical forms and its request fingerprint. */
    record CanonicalCase(String url, String canonical, String canonicalKeepingFragment, String method, String body,
            String fingerprint, String note) {
        @Override
        public String toString() {
            return note + ": " + url;
        }
    }

    /** One row of {@code urljoin.json}: a reference resolved against a base by Python's {@code urljoin}. */
    record JoinCase(String base, String ref, String resolved) {
        @Override
        public String toString() {
            return "'" + ref + "' against " + base;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private UrlFixtures() {
    }

    static List<CanonicalCase> canonicalCases() {
        return read("/url/canonical-urls.json", new TypeReference<>() { });
    }

    static List<JoinCase> joinCases() {
        return read("/url/urljoin.json", new TypeReference<>() { });
    }

    private static <T> List<T> read(String resource, TypeReference<List<T>> type) {
        try (InputStream in = UrlFixtures.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + resource);
            }
            return JSON.readValue(in, type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
