package ${package};

import org.scrapycluster.api.Page;
import org.scrapycluster.api.Spider;
import org.scrapycluster.api.SpiderOutput;

/**
 * The spider {@code ${spiderName}}: follows links as the link spider does and adds each page's size in
 * bytes to its result as {@code bytes}. Change its parse method to make it yours.
 */
public final class PageSpider implements Spider {

    @Override
    public String name() {
        return "${spiderName}";
    }

    @Override
    public SpiderOutput parse(Page page) {
        return SpiderOutput.followLinks(page).withField("bytes", page.body().length);
    }
}
