package org.scrapycluster.crawler.spider;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.scrapycluster.crawler.links.Link;
import org.scrapycluster.crawler.request.CrawlRequest;

/**
 * The original's link spider ({@code link}, docs/compatibility.md §4.8): publishes every page, and while the
 * page's {@code curdepth} is below the crawl's {@code maxdepth} follows its links under the crawl's
 * filters — each a request with crawl priority − 10, {@code curdepth} + 1 and the crawl's User-Agent —
 * listing them in the item's {@code links}. At the depth limit {@code links} is empty.
 */
public final class LinkSpider implements Spider {

    /** How much lower a child's crawl priority is than its page's. */
    public static final int PRIORITY_DROP = 10;

    private final LinkRules rules = new LinkRules();

    @Override
    public String name() {
        return "link";
    }

    @Override
    public SpiderOutput parse(SpiderResponse response) {
        CrawlRequest request = response.request();
        long depth = request.number("curdepth", 0);
        List<Link> links = depth < request.number("maxdepth", 0) && response.isText()
                ? rules.extract(request, response.text(), response.url())
                : List.of();
        List<CrawlRequest> children = new ArrayList<>(links.size());
        for (Link link : links) {
            children.add(LinkRules.follow(request, link.url(),
                    Map.of("priority", request.priority() - PRIORITY_DROP, "curdepth", depth + 1)));
        }
        return new SpiderOutput(children, response.item().withLinks(links));
    }
}
