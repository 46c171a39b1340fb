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
 * schema from its parsed tree and from its bytes, and an action request refused by the crawl schema (what the
 * monitor pays before it tries the next schema).
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

    @Setup
    public void parse() throws IOException {
        crawl = json.readTree(TYPICAL_CRAWL);
        action = json.readTree(ACTION);
        expect(ValidationResult.Valid.class, validator.validate(crawl));
        expect(ValidationResult.Invalid.class, validator.validate(action));
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

    /** A benchmark of the wrong outcome would measure nothing worth knowing. */
    private static void expect(Class<? extends ValidationResult> kind, ValidationResult result) {
        if (!kind.isInstance(result)) {
            throw new IllegalStateException("expected " + kind.getSimpleName() + ", got " + result);
        }
    }
}
