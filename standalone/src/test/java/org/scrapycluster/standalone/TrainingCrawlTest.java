package org.scrapycluster.standalone;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.scrapycluster.embedded.origin.PageRef;

class TrainingCrawlTest {

    @Test
    void everyPageIsALinkOfALinkOfItsDomainsFirstPage() {
        for (int domain = 0; domain < TrainingCrawl.SITE.domains(); domain++) {
            assertEquals(TrainingCrawl.SITE.pagesPerDomain(), TrainingCrawl.SITE.reachable(new PageRef(domain, 0), 2, page -> true).size(),
                    "pages of domain " + domain + " within two links of its page 0");
        }
    }

    @Test
    void aCrawlFetchesEveryPageOfTheSite() {
        assertEquals(2_500, TrainingCrawl.PAGES_PER_CRAWL);
        assertEquals(3, TrainingCrawl.MAX_DEPTH, "deeper than the seed's links' links, within the request schema");
    }

    @Test
    void runsOnFreePortsAndNeedsNoLookUp() {
        assertEquals(0, TrainingCrawl.trainingSettings().service("standalone").getInt("STANDALONE_KAFKA_PORT"));
        assertEquals("127.0.0.1", TrainingCrawl.trainingSettings().service("crawler").getString("PUBLIC_IP"));
    }
}
