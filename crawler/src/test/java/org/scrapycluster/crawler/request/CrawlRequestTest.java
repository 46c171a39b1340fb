package org.scrapycluster.crawler.request;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
