package org.scrapycluster.bench.outside;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.request.RequestSchema;
import org.scrapycluster.common.request.RequestValidator;
import org.scrapycluster.common.request.ValidationResult;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The requests of a crawl from outside: each seed under each crawl id, as the Kafka monitor takes them. */
class CrawlRequestsTest {

    private static final List<String> SEEDS = List.of("http://127.0.0.11:8080/p/0", "http://127.0.0.12:8080/p/0");

    @Test
    void sendsEverySeedUnderEveryCrawlid() {
        assertEquals(List.of(
                        "{\"url\":\"http://127.0.0.11:8080/p/0\",\"appid\":\"bench\",\"crawlid\":\"r-1-1\",\"spiderid\":\"link\","
                                + "\"maxdepth\":3}",
                        "{\"url\":\"http://127.0.0.11:8080/p/0\",\"appid\":\"bench\",\"crawlid\":\"r-1-2\",\"spiderid\":\"link\","
                                + "\"maxdepth\":3}",
                        "{\"url\":\"http://127.0.0.12:8080/p/0\",\"appid\":\"bench\",\"crawlid\":\"r-1-1\",\"spiderid\":\"link\","
                                + "\"maxdepth\":3}",
                        "{\"url\":\"http://127.0.0.12:8080/p/0\",\"appid\":\"bench\",\"crawlid\":\"r-1-2\",\"spiderid\":\"link\","
                                + "\"maxdepth\":3}"),
                CrawlRequests.of(SEEDS, List.of("r-1-1", "r-1-2")));
    }

    @Test
    void everyRequestIsAValidCrawlRequest() throws Exception {
        RequestValidator validator = new RequestValidator(RequestSchema.builtIn(RequestSchema.SCRAPER));
        ObjectMapper json = new ObjectMapper();
        for (String request : CrawlRequests.of(SEEDS, List.of("outside-0123abcd-24-2"))) {
            assertInstanceOf(ValidationResult.Valid.class, validator.validate(json.readTree(request)), request);
        }
    }
}
