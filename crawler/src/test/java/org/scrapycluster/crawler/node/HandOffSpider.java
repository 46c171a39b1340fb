package org.scrapycluster.crawler.node;

import org.scrapycluster.crawler.spider.LinkSpider;
import org.scrapycluster.crawler.spider.Spider;
import org.scrapycluster.crawler.spider.SpiderOutput;
import org.scrapycluster.crawler.spider.SpiderResponse;

import java.util.Map;

/** A test spider ({@value #NAME}) that follows links as the link spider does, but hands them to the link spider. */
public final class HandOffSpider implements Spider {

    static final String NAME = "handoff";

    private final LinkSpider links = new LinkSpider();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public SpiderOutput parse(SpiderResponse response) {
        SpiderOutput output = links.parse(response);
        return new SpiderOutput(output.requests().stream().map(child -> child.withMeta(Map.of("spiderid", "link"))).toList(),
                output.item());
    }
}
