package org.scrapycluster.crawler.node;

import java.util.LinkedHashMap;
import java.util.Map;

import org.scrapycluster.api.FollowRequest;
import org.scrapycluster.api.Page;
import org.scrapycluster.api.Spider;
import org.scrapycluster.api.SpiderOutput;
import org.scrapycluster.crawler.spider.LinkSpider;

/** A test spider ({@value #NAME}) that follows links as the link spider does, but hands them to the link spider. */
public final class HandOffSpider implements Spider {

    static final String NAME = "handoff";

    private final LinkSpider links = new LinkSpider();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public SpiderOutput parse(Page page) {
        SpiderOutput output = links.parse(page);
        return new SpiderOutput(output.follow().stream().map(child -> {
            Map<String, Object> meta = new LinkedHashMap<>(child.meta());
            meta.put("spiderid", "link");
            return new FollowRequest(child.url(), meta);
        }).toList(), output.links(), output.fields());
    }
}
