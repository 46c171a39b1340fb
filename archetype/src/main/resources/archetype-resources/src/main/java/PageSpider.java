package ${package};

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.scrapycluster.api.FollowRequest;
import org.scrapycluster.api.Page;
import org.scrapycluster.api.PageLink;
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
        long depth = page.number("curdepth", 0);
        List<PageLink> links = depth < page.number("maxdepth", 0) ? page.links() : List.of();
        List<FollowRequest> follow = new ArrayList<>();
        for (PageLink link : links) {
            follow.add(new FollowRequest(link.url(), Map.of("priority", page.number("priority", 0) - 10, "curdepth", depth + 1)));
        }
        return new SpiderOutput(follow, links, Map.of("bytes", page.body().length));
    }
}
