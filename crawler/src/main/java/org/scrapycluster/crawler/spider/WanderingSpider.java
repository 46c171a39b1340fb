package org.scrapycluster.crawler.spider;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.scrapycluster.crawler.links.Link;
import org.scrapycluster.crawler.request.CrawlRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The original's wandering spider ({@code wandering}, docs/compatibility.md §4.10): a random walk. Each page is
 * published with {@code attrs.step} set to its hop count, and one of its links (under the crawl's filters,
 * whatever the depth) is picked at random and followed with {@code step} + 1. The walk ends on a page
 * without links, or when the pick was seen before (dupefilter). Its items never list links.
 */
public final class WanderingSpider implements Spider {

    private static final Logger LOG = LoggerFactory.getLogger(WanderingSpider.class);

    private final LinkRules rules = new LinkRules();

    @Override
    public String name() {
        return "wandering";
    }

    @Override
    public SpiderOutput parse(SpiderResponse response) {
        CrawlRequest request = response.request();
        long step = request.number("step", 0);
        Map<String, Object> attrs = new LinkedHashMap<>();
        if (request.meta().get("attrs") instanceof Map<?, ?> given) {
            given.forEach((key, value) -> attrs.put(String.valueOf(key), value));
        }
        attrs.put("step", step);
        List<Link> links = response.isText() ? rules.extract(request, response.text(), response.url()) : List.of();
        List<CrawlRequest> next = List.of();
        if (links.isEmpty()) {
            LOG.atInfo().addKeyValue("url", response.url()).addKeyValue("crawlid", request.crawlid()).log("Did not find any more links");
        } else {
            Link pick = links.get(ThreadLocalRandom.current().nextInt(links.size()));
            next = List.of(LinkRules.follow(request, pick.url(), Map.of("step", step + 1)));
        }
        return new SpiderOutput(next, response.item().withAttrs(attrs));
    }
}
