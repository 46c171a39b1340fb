package org.scrapycluster.api;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a spider made of a page: the requests to crawl next and what its result item says beyond what the
 * node fills in itself (url, status, headers, body, appid, crawlid, timestamp, …).
 *
 * @param follow the requests to crawl next, in order
 * @param links  the links the result item lists in its {@code links} field
 * @param fields further fields of the result item, name → JSON value; {@code attrs} replaces the crawl's
 *               {@code attrs}, a name the item already has otherwise is refused
 */
public record SpiderOutput(List<FollowRequest> follow, List<PageLink> links, Map<String, Object> fields) {

    public SpiderOutput {
        follow = List.copyOf(follow);
        links = List.copyOf(links);
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(fields, "fields")));
    }

    /** How much lower the crawl priority of a followed link is than its page's. */
    public static final int LINK_PRIORITY_DROP = 10;

    /**
     * What the {@code link} spider makes of {@code page}: while the page's {@code curdepth} is below the
     * crawl's {@code maxdepth}, every one of {@link Page#links()} followed, with crawl priority
     * {@value #LINK_PRIORITY_DROP} lower and {@code curdepth} one higher, and listed in the result's
     * {@code links}; at the depth limit, nothing followed or listed.
     */
    public static SpiderOutput followLinks(Page page) {
        long depth = page.number("curdepth", 0);
        List<PageLink> links = depth < page.number("maxdepth", 0) ? page.links() : List.of();
        List<FollowRequest> follow = new ArrayList<>(links.size());
        for (PageLink link : links) {
            follow.add(new FollowRequest(link.url(),
                    Map.of("priority", page.number("priority", 0) - LINK_PRIORITY_DROP, "curdepth", depth + 1)));
        }
        return new SpiderOutput(follow, links, Map.of());
    }

    /** A page published as it is, with nothing followed. */
    public static SpiderOutput publish() {
        return new SpiderOutput(List.of(), List.of(), Map.of());
    }

    /** This output with field {@code name} of the result item set to {@code value} (a JSON value). */
    public SpiderOutput withField(String name, Object value) {
        Map<String, Object> changed = new LinkedHashMap<>(fields);
        changed.put(name, value);
        return new SpiderOutput(follow, links, changed);
    }
}
