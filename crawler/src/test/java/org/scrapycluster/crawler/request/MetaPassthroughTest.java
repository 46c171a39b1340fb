package org.scrapycluster.crawler.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Children get the crawl fields they lack, never overwriting their own, and no framework bookkeeping (docs/compatibility.md W13). */
class MetaPassthroughTest {

    @Test
    void copiesMissingCrawlFieldsOnlyAndStartsRetriesAfresh() {
        Map<String, Object> parentMeta = new LinkedHashMap<>();
        parentMeta.put("appid", "app");
        parentMeta.put("crawlid", "c1");
        parentMeta.put("priority", 50);
        parentMeta.put("curdepth", 1);
        parentMeta.put("maxdepth", 3);
        parentMeta.put("retry_times", 2);
        parentMeta.put("redirect_times", 1);
        parentMeta.put("attrs", Map.of("k", "v"));
        CrawlRequest parent = CrawlRequest.get("http://ex.com/", parentMeta);
        CrawlRequest child = MetaPassthrough.inherit(parent, CrawlRequest.get("http://ex.com/a", Map.of("priority", 40, "curdepth", 2)));

        assertEquals(40, child.meta().get("priority"), "the child's own value stays");
        assertEquals(2, child.meta().get("curdepth"));
        assertEquals("app", child.meta().get("appid"));
        assertEquals(3, child.meta().get("maxdepth"));
        assertEquals(Map.of("k", "v"), child.meta().get("attrs"));
        assertEquals(0, child.meta().get("retry_times"), "children do not inherit retries");
        assertFalse(child.meta().containsKey("redirect_times"), "framework keys stay behind");
    }

    /** The child's meta is read through to its parent's; what it answers is what its entries hold, in their order. */
    @Test
    void readingTheMetaAgreesWithItsEntries() {
        Map<String, Object> parentMeta = new LinkedHashMap<>();
        parentMeta.put("crawlid", "c1");
        parentMeta.put("expires", null);
        parentMeta.put("useragent", "bot");
        parentMeta.put("retry_times", 4);
        parentMeta.put("private", "stays");
        Map<String, Object> childMeta = new LinkedHashMap<>();
        childMeta.put("curdepth", 2);
        childMeta.put("appid", null);
        childMeta.put("retry_times", null);
        childMeta.put("mine", "kept");
        CrawlRequest child = MetaPassthrough.inherit(CrawlRequest.get("http://ex.com/", parentMeta),
                CrawlRequest.get("http://ex.com/a", childMeta));
        CrawlRequest grandchild = MetaPassthrough.inherit(child, CrawlRequest.get("http://ex.com/b", Map.of("curdepth", 3)));
        for (CrawlRequest request : List.of(child, grandchild)) {
            Map<String, Object> entries = new LinkedHashMap<>();
            request.meta().forEach(entries::put);
            assertEquals(entries.size(), request.meta().size(), "counted without putting the entries together");
            for (String key : List.of("curdepth", "appid", "retry_times", "mine", "crawlid", "expires", "useragent", "private", "maxdepth")) {
                assertEquals(entries.get(key), request.meta().get(key), key);
                assertEquals(entries.containsKey(key), request.meta().containsKey(key), key);
            }
        }
        assertEquals(List.of("curdepth", "appid", "retry_times", "mine", "crawlid", "expires", "useragent"), List.copyOf(child.meta().keySet()));
        assertEquals(Arrays.asList(2, null, 0, "kept", "c1", null, "bot"), new ArrayList<>(child.meta().values()));
        assertEquals(List.of("curdepth", "appid", "crawlid", "expires", "useragent", "retry_times"), List.copyOf(grandchild.meta().keySet()));
    }
}
