package org.scrapycluster.crawler.spider;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.scrapycluster.api.FollowRequest;
import org.scrapycluster.api.Page;
import org.scrapycluster.api.PageLink;
import org.scrapycluster.api.Spider;
import org.scrapycluster.api.SpiderOutput;

/**
 * The original's link spider ({@code link}, docs/extending.md): publishes every page, and while the
 * page's {@code curdepth} is below the crawl's {@code maxdepth} follows its links under the crawl's
 * filters — each a request with crawl priority − 10, {@code curdepth} + 1 and the crawl's User-Agent —
 * listing them in the item's {@code links}. At the depth limit {@code links} is empty.
 */
public final class LinkSpider implements Spider {

    /** How much lower a child's crawl priority is than its page's. */
    public static final int PRIORITY_DROP = 10;

    @Override
    public String name() {
        return "link";
    }

    @Override
    public SpiderOutput parse(Page page) {
        long depth = page.number("curdepth", 0);
        List<PageLink> links = depth < page.number("maxdepth", 0) ? page.links() : List.of();
        List<FollowRequest> children = new ArrayList<>(links.size());
        for (PageLink link : links) {
            children.add(new FollowRequest(link.url(),
                    Map.of("priority", page.number("priority", 0) - PRIORITY_DROP, "curdepth", depth + 1)));
        }
        return new SpiderOutput(children, links, Map.of());
    }
}
