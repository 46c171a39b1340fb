package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.scrapycluster.api.Page;
import org.scrapycluster.api.Spider;
import org.scrapycluster.api.SpiderOutput;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.common.queue.QueueKey;
import org.scrapycluster.crawler.fetch.HeaderMap;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.scrapycluster.embedded.junit.CapturedLog;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * How {@link RequestProcessor} meets failures: a downloader middleware, spider or item pipeline that throws, fails its
 * future or fails on every page is counted each time and said once, and its request given up or left to its lease as
 * the failure says; an error of the node's own code ends the node only when it cannot go on.
 */
class RequestProcessorFailuresTest extends ScriptedProcessing {

    @Test
    void aMiddlewareThatThrowsGivesTheRequestUpAndFreesItsDomain() {
        String lease = process(processor(Map.of("DOWNLOADER_MIDDLEWARES", "{throwing: 50}")), CrawlRequest.get("http://example.com/", meta(0, 0)));

        assertEquals(List.of(), fetched, "nothing fetched");
        assertEquals(List.of(), items());
        assertEquals(List.of("example.com"), finished, "the domain is freed");
        assertFalse(held(lease), "acknowledged: a bug would fail the request again at every try");
    }

    @Test
    void aMiddlewareWhoseFutureFailsLeavesTheRequestToItsLease() {
        String lease = process(processor(Map.of("DOWNLOADER_MIDDLEWARES", "{unavailable: 50}")), CrawlRequest.get("http://example.com/", meta(0, 0)));

        assertEquals(List.of(), fetched, "nothing fetched");
        assertEquals(List.of("example.com"), finished, "the domain is freed");
        assertTrue(held(lease), "its \"not now\": the request returns to its queue when the lease expires");
        assertEquals(1.0, registry.get("crawler.errors").tag("kind", "middleware").counter().count());
    }

    @Test
    void aSpiderThatThrowsAnErrorDropsThePageAndIsCountedLikeOneThatThrowsAnException() {
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html"), "<p>deep</p>", null);
        Spider recursing = failingSpider("recursing", page -> new StackOverflowError());

        process(processor(Map.of(), recursing), CrawlRequest.get("http://example.com/", meta(0, 0)));

        assertEquals(List.of(), items());
        assertEquals(1.0, registry.get("crawler.errors").tag("kind", "spider").counter().count(),
                "counted as a spider failure, and the page dropped rather than crawled again when its lease expires");
    }

    @Test
    void aMiddlewareThatFailsOnEveryRequestIsCountedEachTimeAndItsStackTraceWrittenOnce() {
        RequestProcessor processor = processor(Map.of("DOWNLOADER_MIDDLEWARES", "{throwing: 50}"));
        List<ILoggingEvent> logged = CapturedLog.of(RequestProcessor.class.getPackageName(), () -> {
            for (int page = 0; page < 3; page++) {
                process(processor, CrawlRequest.get("http://example.com/" + page, meta(0, 0)));
            }
        });

        assertEquals(3.0, registry.get("crawler.errors").tag("kind", "middleware").counter().count());
        List<ILoggingEvent> loud = logged.stream().filter(event -> event.getLevel().isGreaterOrEqual(Level.WARN)).toList();
        assertEquals(1, loud.size(), "one line for three failures of one kind: " + loud);
        assertEquals("java.lang.IllegalStateException", loud.getFirst().getThrowableProxy().getClassName(), "with the middleware's stack trace");
        assertTrue(loud.getFirst().getFormattedMessage().contains("throwing"), loud.getFirst().getFormattedMessage());
    }

    @Test
    void anItemPipelineThatThrowsOrReturnsNoFutureIsCountedEachTimeNamedAndItsStackTraceWrittenOnce() {
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html"), "<p>no links</p>", null);
        RequestProcessor throwing = processor(Map.of("ITEM_PIPELINES", "{" + FailingPipelines.Throwing.class.getName() + ": 200, kafka: null}"));
        RequestProcessor futureless = processor(Map.of("ITEM_PIPELINES", "{" + FailingPipelines.Futureless.class.getName() + ": 200, kafka: null}"));
        List<ILoggingEvent> logged = CapturedLog.of(RequestProcessor.class.getPackageName(), () -> {
            for (int page = 0; page < 2; page++) {
                process(throwing, CrawlRequest.get("http://example.com/", meta(0, 0)));
                process(futureless, CrawlRequest.get("http://example.com/", meta(0, 0)));
            }
        });

        assertEquals(4.0, registry.get("crawler.errors").tag("kind", "pipeline").counter().count());
        List<ILoggingEvent> errors = logged.stream().filter(event -> event.getLevel() == Level.ERROR).toList();
        assertEquals(2, errors.size(), "one line for each kind of failure: " + errors);
        assertEquals("java.lang.IllegalStateException", errors.getFirst().getThrowableProxy().getClassName(), "with the stage's stack trace");
        assertTrue(errors.getFirst().getFormattedMessage().startsWith("The item pipeline throwing in process failed: "
                + "java.lang.IllegalStateException: a bug on http://example.com/; the request is given up"), errors.getFirst().getFormattedMessage());
        assertTrue(errors.getLast().getFormattedMessage().contains("the item pipeline futureless returned no future from process"),
                errors.getLast().getFormattedMessage());
        assertEquals(List.of(), items());
    }

    @Test
    void anItemPipelinesBugDropsTheItemGivesTheRequestUpAndDoesNotStallTheNode() {
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html"), "<a href='/next.html'>next</a>", null);
        RequestProcessor processor = processor(Map.of("ITEM_PIPELINES", "{" + FailingPipelines.Throwing.class.getName() + ": 50, logging: null, kafka: null, captured: 100}"));

        String lease = process(processor, CrawlRequest.get("http://example.com/", meta(0, 1)));

        assertEquals(List.of(), items(), "the stages after it are not given the item");
        assertFalse(held(lease), "acknowledged, as Scrapy drops an item whose pipeline raises");
        assertEquals(0, publishingStalled(), "a bug says nothing of whether results can get through");
        assertEquals(1L, redis.sync().zcard(new QueueKey(spider, "example.com").key()), "the page's links are filed all the same");
    }

    @Test
    void aPipelineThatRunsOutOfMemoryEndsTheNodeWithoutStallingItsPublishing() {
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html"), "<p>no links</p>", null);
        RequestProcessor processor = processor(Map.of("ITEM_PIPELINES", "{" + FailingPipelines.HeapExhausted.class.getName() + ": 50, kafka: null}"));

        String lease = process(processor, CrawlRequest.get("http://example.com/", meta(0, 0)));

        assertEquals(List.of(OutOfMemoryError.class), fatal.stream().map(Throwable::getClass).toList());
        assertTrue(held(lease), "not acknowledged: the request returns to its queue");
        assertEquals(0, publishingStalled(), "the node's memory says nothing of whether results can get through");
    }

    @Test
    void aMethodTheNodesJarLacksAbandonsTheLeaseAndIsToldAsAnErrorTheNodeCannotGoOnFrom() {
        NoSuchMethodError stale = new NoSuchMethodError("'void org.scrapycluster.Gone.method()'");
        fetcherErrors.put("http://example.com/", stale);

        String lease = process(processor(Map.of()), CrawlRequest.get("http://example.com/", meta(0, 0)));

        assertEquals(List.of(stale), fatal);
        assertTrue(held(lease), "not acknowledged: the request returns to its queue when its lease expires");
    }

    @Test
    void aStackOverflowInTheNodesOwnCodeLeavesTheRequestToItsLeaseAndTheNodeGoesOn() {
        fetcherErrors.put("http://example.com/", new StackOverflowError());
        try (CapturedLog log = CapturedLog.start(RequestProcessor.class, Level.WARN)) {
            String lease = process(processor(Map.of()), CrawlRequest.get("http://example.com/", meta(0, 0)));

            assertEquals(List.of(), fatal, "one input's doing, perhaps: the node goes on");
            assertTrue(held(lease), "the request returns to its queue when its lease expires");
            assertTrue(log.events().stream().anyMatch(event -> event.getFormattedMessage().startsWith("Could not finish a request")),
                    log.events().toString());
        }
    }

    @Test
    void aPageThePipelinesCannotTakeNowReturnsToItsQueue() {
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html"), "<p>no links</p>", null);
        CapturingPipeline.REFUSED_CRAWLS.add(crawlid);
        try (CapturedLog log = CapturedLog.start(RequestProcessor.class.getPackageName(), Level.WARN)) {
            String lease = process(processor(Map.of()), CrawlRequest.get("http://example.com/", meta(0, 0)));

            assertTrue(held(lease), "the store's \"not now\": the request returns when its lease expires");
            String told = "the item pipeline captured failed its future for http://example.com/: "
                    + "java.lang.IllegalStateException: the store is down";
            assertEquals(List.of(told, told), log.events().stream().flatMap(event -> event.getKeyValuePairs().stream())
                    .filter(pair -> pair.key.equals("reason")).map(pair -> String.valueOf(pair.value)).toList(),
                    "the stall and the request unfinished, each with the stage and the page: " + log.events());
        } finally {
            CapturingPipeline.REFUSED_CRAWLS.remove(crawlid);
        }
    }

    @Test
    void aSpiderThatFailsOnEveryPageIsCountedEachTimeAndItsStackTraceWrittenOnce() {
        Spider failing = failingSpider("failing", page -> new IllegalStateException("a bug on " + page.url()));
        RequestProcessor processor = processor(Map.of(), failing);
        List<ILoggingEvent> logged = CapturedLog.of(RequestProcessor.class.getPackageName(), () -> {
            for (int page = 0; page < 3; page++) {
                answer("http://example.com/" + page, 200, HeaderMap.of("Content-Type", "text/html"), "<p>page</p>", null);
                process(processor, CrawlRequest.get("http://example.com/" + page, meta(0, 0)));
            }
        });

        assertEquals(3.0, registry.get("crawler.errors").tag("kind", "spider").counter().count());
        List<ILoggingEvent> loud = logged.stream().filter(event -> event.getLevel().isGreaterOrEqual(Level.WARN)).toList();
        assertEquals(1, loud.size(), "one line for three failures of one kind: " + loud);
        assertEquals("java.lang.IllegalStateException", loud.getFirst().getThrowableProxy().getClassName(), "with the spider's stack trace");
    }

    @Test
    void aSpiderThatReturnsNoOutputDropsThePageSayingSo() {
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html"), "<p>page</p>", null);
        Spider silent = new Spider() {
            @Override
            public String name() {
                return "silent";
            }

            @Override
            public SpiderOutput parse(Page page) {
                return null;
            }
        };
        List<ILoggingEvent> logged = CapturedLog.of(RequestProcessor.class.getPackageName(),
                () -> process(processor(Map.of(), silent), CrawlRequest.get("http://example.com/", meta(0, 0))));

        assertEquals(List.of(), items());
        assertEquals(1.0, registry.get("crawler.errors").tag("kind", "spider").counter().count());
        String said = logged.stream().filter(event -> event.getLevel() == Level.ERROR).findFirst().orElseThrow().getFormattedMessage();
        assertTrue(said.startsWith("The spider silent failed: ") && said.contains("the spider silent returned no output from parse; "
                + "the page is dropped"), said);
    }

    /**
     * A response reaches the spider, and is counted by its status as the original counts it, and among the pages handed to
     * the spider ({@code crawler_pages_total}), even when the spider fails on it.
     */
    @Test
    void aResponseTheSpiderFailsOnIsCountedByItsStatusAndAsAPage() {
        answer("http://example.com/", 200, HeaderMap.of("Content-Type", "text/html"), "<p>page</p>", null);

        process(processor(Map.of(), failingSpider("failing", page -> new IllegalStateException("no title"))),
                CrawlRequest.get("http://example.com/", meta(0, 0)));
        stats.flush();

        assertEquals(1, redis.sync().pfcount(Keyspace.CRAWLER_STATS.fill("host", spider, "200") + ":lifetime"));
        assertEquals(1.0, registry.get("crawler.pages").counter().count());
    }

    /** A spider named {@code name} that throws what {@code failure} makes of each page, unchecked: an exception or an error. */
    private static Spider failingSpider(String name, Function<Page, Throwable> failure) {
        return new Spider() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public SpiderOutput parse(Page page) {
                Throwable thrown = failure.apply(page);
                if (thrown instanceof Error error) {
                    throw error;
                }
                throw (RuntimeException) thrown;
            }
        };
    }
}
