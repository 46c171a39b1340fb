package org.scrapycluster.common.url;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Canonicalisation and fingerprint speed on one thread, over the fixture URLs. Runs only with
 * {@code -Dscrapycluster.bench=true}; measured, never asserted.
 */
@EnabledIfSystemProperty(named = "scrapycluster.bench", matches = "true")
class UrlBenchmark {

    private static final long WARM_UP_NANOS = 3_000_000_000L;
    private static final long MEASURE_NANOS = 5_000_000_000L;

    @Test
    void canonicaliseAndFingerprint() {
        List<String> urls = UrlFixtures.canonicalCases().stream().map(UrlFixtures.CanonicalCase::url).toList();
        measure("UrlCanonicalizer.canonicalize", urls, UrlCanonicalizer::canonicalize);
        measure("RequestFingerprint.of", urls, RequestFingerprint::of);
        measure("UrlEscaper.escape", urls, UrlEscaper::escape);
    }

    private static void measure(String what, List<String> urls, Function<String, String> operation) {
        long sink = 0;
        long start = System.nanoTime();
        for (int i = 0; System.nanoTime() - start < WARM_UP_NANOS; i++) {
            sink += operation.apply(urls.get(i % urls.size())).length();
        }
        long count = 0;
        start = System.nanoTime();
        long elapsed;
        do {
            for (String url : urls) {
                sink += operation.apply(url).length();
            }
            count += urls.size();
            elapsed = System.nanoTime() - start;
        } while (elapsed < MEASURE_NANOS);
        System.out.printf(Locale.ROOT, "%-32s %,10.0f URLs/s on one thread (%.2f µs each) [%d]%n", what,
                count / (elapsed / 1e9), elapsed / 1e3 / count, sink % 10);
    }
}
