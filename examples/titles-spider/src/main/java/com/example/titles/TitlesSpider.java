package com.example.titles;

import org.jsoup.Jsoup;
import org.scrapycluster.api.Page;
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
        String title = page.isText() ? Jsoup.parse(page.text(), page.url()).title() : "";
        return SpiderOutput.followLinks(page).withField("title", title);
    }
}
