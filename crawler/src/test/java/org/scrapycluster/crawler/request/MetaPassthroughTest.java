package org.scrapycluster.crawler.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.LinkedHashMap;
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
}
