package org.scrapycluster.common.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * Measures how many typical crawl requests one thread validates per second, with and without
 * parsing the JSON text first, and prints the figures. Speed is measured here, never asserted.
 */
class RequestValidatorThroughputTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TYPICAL_CRAWL = """
            {"url":"https://www.example.com/products?page=2","appid":"testapp","crawlid":"abc123",\
            "maxdepth":2,"priority":50,"allowed_domains":["example.com"],"allow_regex":["^https://www\\\\.example\\\\.com/products"]}""";
    private static final long WARM_UP_NANOS = 2_000_000_000L;
    private static final long MEASURE_NANOS = 2_000_000_000L;

    @Test
    void measuresValidationsPerSecond() throws Exception {
        RequestValidator validator = new RequestValidator(RequestSchema.builtIn(RequestSchema.SCRAPER));
        JsonNode request = JSON.readTree(TYPICAL_CRAWL);
        byte[] bytes = TYPICAL_CRAWL.getBytes(StandardCharsets.UTF_8);
        assertInstanceOf(ValidationResult.Valid.class, validator.validate(request));

        loop(() -> validator.validate(request), WARM_UP_NANOS);
        double treeRate = loop(() -> validator.validate(request), MEASURE_NANOS);
        loop(() -> validator.validate(JSON.readTree(bytes)), WARM_UP_NANOS);
        double parsedRate = loop(() -> validator.validate(JSON.readTree(bytes)), MEASURE_NANOS);

        System.out.printf("crawl request validation, one thread: %,.0f/s from a tree, %,.0f/s parsing the bytes first%n",
                treeRate, parsedRate);
        assertEquals(15, ((ValidationResult.Valid) validator.validate(request)).request().size());
    }

    /** Validations per second over {@code nanos}; every result must be valid. */
    private static double loop(Validation validation, long nanos) throws Exception {
        long start = System.nanoTime();
        long count = 0;
        long elapsed;
        do {
            for (int i = 0; i < 1_000; i++) {
                if (!(validation.run() instanceof ValidationResult.Valid)) {
                    throw new AssertionError("a typical crawl request was refused");
                }
            }
            count += 1_000;
            elapsed = System.nanoTime() - start;
        } while (elapsed < nanos);
        return count * 1e9 / elapsed;
    }

    @FunctionalInterface
    private interface Validation {
        ValidationResult run() throws Exception;
    }
}
