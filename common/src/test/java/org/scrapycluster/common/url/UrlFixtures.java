package org.scrapycluster.common.url;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads the JSON fixture tables under {@code src/test/resources/url}: the cases written by hand, one behaviour each,
 * then the {@code -sampled} ones, random inputs answered by the Python code the original runs (w3lib 1.18 and
 * Python's {@code urljoin}; {@code sample_references.py} there writes them).
 */
final class UrlFixtures {

    /**
     * One row of {@code canonical-urls.json} or {@code canonical-urls-sampled.json}: a URL, its canonical forms and its
     * request fingerprint.
     */
    record CanonicalCase(String url, String canonical, String canonicalKeepingFragment, String method, String body,
            String fingerprint, String note) {
        @Override
        public String toString() {
            return note + ": " + url;
        }
    }

    /**
     * One row of {@code urljoin.json} or {@code urljoin-sampled.json}: a reference resolved against a base by Python's
     * {@code urljoin}.
     */
    record JoinCase(String base, String ref, String resolved) {
        @Override
        public String toString() {
            return "'" + ref + "' against " + base;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private UrlFixtures() {
    }

    /** Every canonicalisation case: those written by hand, then the sampled ones. */
    static List<CanonicalCase> canonicalCases() {
        return both(writtenCanonicalCases(), read("/url/canonical-urls-sampled.json", new TypeReference<>() { }));
    }

    /** The canonicalisation cases written by hand, one behaviour each. */
    static List<CanonicalCase> writtenCanonicalCases() {
        return read("/url/canonical-urls.json", new TypeReference<>() { });
    }

    static List<JoinCase> joinCases() {
        return both(read("/url/urljoin.json", new TypeReference<>() { }),
                read("/url/urljoin-sampled.json", new TypeReference<>() { }));
    }

    private static <T> List<T> both(List<T> written, List<T> sampled) {
        List<T> cases = new ArrayList<>(written);
        cases.addAll(sampled);
        return cases;
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
