package org.scrapycluster.bench.micro;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.request.RequestValidator;
import org.scrapycluster.common.request.ValidationResult;

/**
 * What the Kafka monitor pays a request for its validation: a typical crawl request checked against the crawl
 * schema from its parsed tree and from its bytes, an action request refused by the crawl schema (what the
 * monitor pays before it tries the next schema), a crawl request of 600 KB whose list of 300,000 numbers breaks
 * 300,001 rules (a hostile one: each item the wrong type, the list full of repeats), and a valid one of 900 KB whose
 * {@code allowed_domains} lists 28,000 strings that share one hash (hostile too: it made the schema's check of repeats
 * search one bucket for each).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RequestValidationBenchmarks {

    private static final String TYPICAL_CRAWL = """
            {"url":"https://www.example.com/products?page=2","appid":"testapp","crawlid":"abc123","maxdepth":2,\
            "priority":50,"allowed_domains":["example.com"],"allow_regex":["^https://www\\\\.example\\\\.com/products"]}""";
    private static final String ACTION = """
            {"uuid":"abc123","appid":"testapp","action":"info","spiderid":"link"}""";

    private final ObjectMapper json = new ObjectMapper();
    private final RequestValidator validator = new RequestValidator(RequestSchema.builtIn(RequestSchema.SCRAPER));
    private final byte[] crawlBytes = TYPICAL_CRAWL.getBytes(StandardCharsets.UTF_8);
    private JsonNode crawl;
    private JsonNode action;
    private JsonNode hostile;
    private JsonNode colliding;

    @Setup
    public void parse() throws IOException {
        crawl = json.readTree(TYPICAL_CRAWL);
        action = json.readTree(ACTION);
        StringBuilder numbers = new StringBuilder(
                "{\"url\":\"http://example.com/\",\"appid\":\"testapp\",\"crawlid\":\"c\",\"allowed_domains\":[0");
        for (int i = 1; i < 300_000; i++) {
            numbers.append(',').append(i % 10);
        }
        hostile = json.readTree(numbers.append("]}").toString());
        StringBuilder domains = new StringBuilder(
                "{\"url\":\"http://example.com/\",\"appid\":\"testapp\",\"crawlid\":\"c\",\"allowed_domains\":[");
        for (int i = 0; i < 28_000; i++) {
            domains.append(i == 0 ? "\"" : ",\"");
            for (int bit = 14; bit >= 0; bit--) {
                domains.append((i >> bit & 1) == 0 ? "Aa" : "BB"); // "Aa" and "BB" hash alike, so all 28,000 do
            }
            domains.append('"');
        }
        colliding = json.readTree(domains.append("]}").toString());
        expect(ValidationResult.Valid.class, validator.validate(crawl));
        expect(ValidationResult.Valid.class, validator.validate(colliding));
        expect(ValidationResult.Invalid.class, validator.validate(action));
        expect(ValidationResult.Invalid.class, validator.validate(hostile));
    }

    @Benchmark
    public ValidationResult crawlFromTree() {
        return validator.validate(crawl);
    }

    @Benchmark
    public ValidationResult crawlFromBytes() throws IOException {
        return validator.validate(json.readTree(crawlBytes));
    }

    @Benchmark
    public ValidationResult actionRefusedByTheCrawlSchema() {
        return validator.validate(action);
    }

    @Benchmark
    public ValidationResult crawlBreakingThreeHundredThousandRules() {
        return validator.validate(hostile);
    }

    @Benchmark
    public ValidationResult crawlListingStringsThatShareOneHash() {
        return validator.validate(colliding);
    }

    /** A benchmark of the wrong outcome would measure nothing worth knowing. */
    private static void expect(Class<? extends ValidationResult> kind, ValidationResult result) {
        if (!kind.isInstance(result)) {
            throw new IllegalStateException("expected " + kind.getSimpleName() + ", got " + result);
        }
    }
}
