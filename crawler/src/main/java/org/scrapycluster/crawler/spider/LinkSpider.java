package org.scrapycluster.crawler.spider;

import org.scrapycluster.api.Page;
import org.scrapycluster.api.Spider;
import org.scrapycluster.api.SpiderOutput;

/**
 * The original's link spider ({@code link}, docs/compatibility.md §4.8): publishes every page, and while the
 * page's {@code curdepth} is below the crawl's {@code maxdepth} follows its links under the crawl's
 * filters — each a request with crawl priority − 10, {@code curdepth} + 1 and the crawl's User-Agent —
 * listing them in the item's {@code links} ({@link SpiderOutput#followLinks}). At the depth limit
 * {@code links} is empty.
 */
public final class LinkSpider implements Spider {

    @Override
    public String name() {
        return "link";
    }

    @Override
    public SpiderOutput parse(Page page) {
        return SpiderOutput.followLinks(page);
    }
}
