package org.scrapycluster.crawler.middleware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.scrapycluster.crawler.request.CrawlRequest;

/** Retries go back through Redis ten priority points lower, marked don't-filter, up to RETRY_TIMES (docs/compatibility.md §4.11). */
class RetryPolicyTest {

    private final RetryPolicy policy = new RetryPolicy(true, 1, Set.of(500, 503));

    @Test
    void aRetryIsTenPointsLowerCountedAndUnfiltered() {
        CrawlRequest retried = policy.retry(CrawlRequest.get("http://ex.com/", Map.of("priority", 70, "retry_times", 0))).orElseThrow();
        assertEquals(60, retried.priority());
        assertEquals(1L, retried.meta().get("retry_times"));
        assertTrue(retried.dontFilter());
        assertTrue(policy.retry(retried).isEmpty(), "a second retry with RETRY_TIMES 1");
    }

    @Test
    void retriesCanBeOffForAllOrForOneRequest() {
        assertTrue(new RetryPolicy(false, 3, Set.of()).retry(CrawlRequest.get("http://ex.com/", Map.of())).isEmpty());
        assertTrue(policy.retry(CrawlRequest.get("http://ex.com/", Map.of("dont_retry", true))).isEmpty());
        assertTrue(policy.retriesStatus(503));
        assertTrue(!policy.retriesStatus(404));
    }
}
