package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.PageRef;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;

/**
 * Two crawler nodes racing through one domain, each filing the links of the pages it fetches, never
 * crawl more pages than a crawl's {@code domain_max_pages} or the {@code GLOBAL_PAGE_PER_DOMAIN_LIMIT}
 * allows: the counter is checked and raised in the same script call that queues a link
 * (docs/differences.md "Page limits are atomic"), so no two nodes both take the last page.
 */
@ExtendWith(SharedStack.class)
class PageLimitsAcrossNodesTest {

    private static final SyntheticSite SITE = SyntheticSite.builder().seed(11).domains(1).pagesPerDomain(200).linksPerPage(8)
            .pageBytes(300).build();
    private static final PageRef START = new PageRef(0, 0);

    private final EmbeddedStack stack;

    PageLimitsAcrossNodesTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @Test
    void domainMaxPagesHoldsWithTwoNodes() {
        try (TestOrigin origin = TestOrigin.start(SITE); CrawlerTestBed bed = new CrawlerTestBed(stack)) {
            bed.set("ROBOTSTXT_OBEY", false);
            bed.startNode();
            bed.startNode();
            Map<String, Object> seed = CrawlerTestBed.feedItem(origin.pageUrl(START), "max-pages");
            seed.put("maxdepth", 3);
            seed.put("domain_max_pages", 12);
            bed.seed(seed);

            assertPages(origin, bed.awaitResults(12), 12);
        }
    }

    @Test
    void theGlobalPageLimitHoldsWithTwoNodes() {
        try (TestOrigin origin = TestOrigin.start(SITE); CrawlerTestBed bed = new CrawlerTestBed(stack)) {
            bed.set("ROBOTSTXT_OBEY", false).set("GLOBAL_PAGE_PER_DOMAIN_LIMIT", 9);
            bed.startNode();
            bed.startNode();
            Map<String, Object> seed = CrawlerTestBed.feedItem(origin.pageUrl(START), "global-limit");
            seed.put("maxdepth", 3);
            bed.seed(seed);

            assertPages(origin, bed.awaitResults(9), 9);
        }
    }

    /** Exactly {@code limit} distinct pages published and fetched, though the site offers far more within the depth. */
    private static void assertPages(TestOrigin origin, List<JsonNode> results, int limit) {
        assertTrue(SITE.reachable(START, 3, page -> true).size() > 4 * limit, "the site has more to offer");
        List<String> urls = CrawlerTestBed.urls(results);
        assertEquals(limit, urls.size(), urls.toString());
        assertEquals(limit, urls.stream().distinct().count(), urls.toString());
        assertEquals(limit, origin.requests().matching(r -> r.path().startsWith(SyntheticSite.PAGE_PREFIX)).size());
    }
}
