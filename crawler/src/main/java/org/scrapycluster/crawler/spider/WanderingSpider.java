package org.scrapycluster.crawler.spider;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.scrapycluster.api.FollowRequest;
import org.scrapycluster.api.Page;
import org.scrapycluster.api.PageLink;
import org.scrapycluster.api.Spider;
import org.scrapycluster.api.SpiderOutput;
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

    @Override
    public String name() {
        return "wandering";
    }

    @Override
    public SpiderOutput parse(Page page) {
        long step = page.number("step", 0);
        Map<String, Object> attrs = new LinkedHashMap<>();
        if (page.meta().get("attrs") instanceof Map<?, ?> given) {
            given.forEach((key, value) -> attrs.put(String.valueOf(key), value));
        }
        attrs.put("step", step);
        List<PageLink> links = page.links();
        List<FollowRequest> next = List.of();
        if (links.isEmpty()) {
            LOG.atInfo().addKeyValue("url", page.url()).addKeyValue("crawlid", page.meta().get("crawlid")).log("Did not find any more links");
        } else {
            PageLink pick = links.get(ThreadLocalRandom.current().nextInt(links.size()));
            next = List.of(new FollowRequest(pick.url(), Map.of("step", step + 1)));
        }
        return new SpiderOutput(next, List.of(), Map.of("attrs", attrs));
    }
}
