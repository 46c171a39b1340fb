package org.scrapycluster.crawler.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class CrawlRequestTest {

    @Test
    void aFlagIsSetAsPythonReadsAValueInAnIf() {
        Map<String, Object> meta = new HashMap<>(Map.of("true", true, "one", 1, "half", 0.5, "text", "yes", "list", List.of(0),
                "object", Map.of("a", 1), "false", false, "zero", 0, "empty", "", "none", List.of()));
        meta.put("null", null);
        CrawlRequest request = CrawlRequest.get("http://example.com/", meta);

        for (String set : List.of("true", "one", "half", "text", "list", "object")) {
            assertEquals(true, request.flag(set), set);
        }
        for (String unset : List.of("false", "zero", "empty", "none", "null", "absent")) {
            assertEquals(false, request.flag(unset), unset);
        }
    }

    @Test
    void aMapNobodyCanChangeIsKeptAndAnyOtherCopied() {
        Map<String, Object> unmodifiable = Map.of("priority", 40L, "curdepth", 2L);
        assertSame(unmodifiable, CrawlRequest.get("http://example.com/", unmodifiable).meta(), "a followed link's meta");

        Map<String, Object> mutable = new HashMap<>(unmodifiable);
        CrawlRequest request = CrawlRequest.get("http://example.com/", mutable);
        mutable.put("priority", 1L);
        assertEquals(40L, request.meta().get("priority"), "copied: the caller's later change does not reach it");
        assertThrows(UnsupportedOperationException.class, () -> request.meta().put("priority", 1L));
    }
}
