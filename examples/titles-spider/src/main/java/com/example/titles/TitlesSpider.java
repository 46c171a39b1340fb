package com.example.titles;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jsoup.Jsoup;
import org.scrapycluster.api.FollowRequest;
import org.scrapycluster.api.Page;
import org.scrapycluster.api.PageLink;
import org.scrapycluster.api.Spider;
import org.scrapycluster.api.SpiderOutput;

/**
 * Follows links as the link spider does and adds to every page's result the field {@code title}: the
 * text of the page's {@code <title>}, empty when it has none.
 */
public final class TitlesSpider implements Spider {

    @Override
    public String name() {
        return "titles";
    }

    @Override
    public SpiderOutput parse(Page page) {
        long depth = page.number("curdepth", 0);
        List<PageLink> links = depth < page.number("maxdepth", 0) ? page.links() : List.of();
        List<FollowRequest> follow = new ArrayList<>();
        for (PageLink link : links) {
            follow.add(new FollowRequest(link.url(), Map.of("priority", page.number("priority", 0) - 10, "curdepth", depth + 1)));
        }
        String title = page.isText() ? Jsoup.parse(page.text(), page.url()).title() : "";
        return new SpiderOutput(follow, links, Map.of("title", title));
    }
}
