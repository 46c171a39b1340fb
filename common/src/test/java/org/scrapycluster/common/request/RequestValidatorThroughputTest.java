package org.scrapycluster.common.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * Measures how many typical crawl requests one thread validates per second, with and without
 * parsing the JSON text first, and how many action requests the crawl schema refuses per second
 * (what the Kafka monitor pays before it tries the next schema), and prints the best and the median of several rounds (the machine
 * is shared, so single rounds are noisy). Speed is measured here, never asserted.
 */
class RequestValidatorThroughputTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TYPICAL_CRAWL = """
            {"url":"https://www.example.com/products?page=2","appid":"testapp","crawlid":"abc123",\
            "maxdepth":2,"priority":50,"allowed_domains":["example.com"],"allow_regex":["^https://www\\\\.example\\\\.com/products"]}""";
    private static final String ACTION = "{\"uuid\":\"abc123\",\"appid\":\"testapp\",\"action\":\"info\",\"spiderid\":\"link\"}";
    private static final long WARM_UP_NANOS = 2_000_000_000L;
    private static final long ROUND_NANOS = 500_000_000L;
    private static final int ROUNDS = 7;

    @Test
    void measuresValidationsPerSecond() throws Exception {
        RequestValidator validator = new RequestValidator(RequestSchema.builtIn(RequestSchema.SCRAPER));
        JsonNode request = JSON.readTree(TYPICAL_CRAWL);
        byte[] bytes = TYPICAL_CRAWL.getBytes(StandardCharsets.UTF_8);
        JsonNode action = JSON.readTree(ACTION);
        assertInstanceOf(ValidationResult.Valid.class, validator.validate(request));
        assertInstanceOf(ValidationResult.Invalid.class, validator.validate(action));

        Validation fromTree = () -> validator.validate(request);
        Validation fromBytes = () -> validator.validate(JSON.readTree(bytes));
        Validation refusal = () -> validator.validate(action);
        loop(fromTree, ValidationResult.Valid.class, WARM_UP_NANOS);
        loop(fromBytes, ValidationResult.Valid.class, WARM_UP_NANOS);
        loop(refusal, ValidationResult.Invalid.class, WARM_UP_NANOS);
        double[] treeRates = new double[ROUNDS];
        double[] bytesRates = new double[ROUNDS];
        double[] refusalRates = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            treeRates[round] = loop(fromTree, ValidationResult.Valid.class, ROUND_NANOS);
            bytesRates[round] = loop(fromBytes, ValidationResult.Valid.class, ROUND_NANOS);
            refusalRates[round] = loop(refusal, ValidationResult.Invalid.class, ROUND_NANOS);
        }
        System.out.printf("one thread, best / median of %d rounds per second: crawl request from a tree %s,"
                + " parsing the bytes first %s; action request refused by the crawl schema %s%n",
                ROUNDS, figures(treeRates), figures(bytesRates), figures(refusalRates));
        assertEquals(15, ((ValidationResult.Valid) validator.validate(request)).request().size());
    }

    private static String figures(double[] rates) {
        Arrays.sort(rates);
        return String.format("%,.0f / %,.0f", rates[rates.length - 1], rates[rates.length / 2]);
    }

    /** Validations per second over {@code nanos}; every result must be of the {@code expected} kind. */
    private static double loop(Validation validation, Class<? extends ValidationResult> expected, long nanos) throws Exception {
        long start = System.nanoTime();
        long count = 0;
        long elapsed;
        do {
            for (int i = 0; i < 1_000; i++) {
                if (!expected.isInstance(validation.run())) {
                    throw new AssertionError("the result is not " + expected.getSimpleName());
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
