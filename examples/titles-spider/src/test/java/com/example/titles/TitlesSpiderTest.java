package com.example.titles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.api.ExtensionSettings;
import org.scrapycluster.api.FollowRequest;
import org.scrapycluster.api.Page;
import org.scrapycluster.api.PageLink;
import org.scrapycluster.api.SpiderOutput;

class TitlesSpiderTest {

    /** A page as the crawler would hand it over. */
    private record TestPage(String text, Map<String, Object> meta, List<PageLink> links) implements Page {
        public String url() {
            return "http://shop.example/";
        }

        public int status() {
            return 200;
        }

        public Map<String, List<String>> headers() {
            return Map.of("Content-Type", List.of("text/html"));
        }

        public byte[] body() {
            return text.getBytes(StandardCharsets.UTF_8);
        }

        public boolean isText() {
            return true;
        }
    }

    private static final List<PageLink> LINKS = List.of(new PageLink("http://shop.example/a", "A"));

    @Test
    void thePageTitleIsInTheResultAndLinksAreFollowedOneLevelDeeper() {
        SpiderOutput output = new TitlesSpider().parse(new TestPage("<html><head><title> Shoes &amp; boots </title></head></html>",
                Map.of("curdepth", 0, "maxdepth", 1, "priority", 50), LINKS));
        assertEquals("Shoes & boots", output.fields().get("title"));
        assertEquals(List.of(new FollowRequest("http://shop.example/a", Map.of("priority", 40L, "curdepth", 1L))), output.follow());
        assertEquals(LINKS, output.links());
    }

    @Test
    void atTheDepthLimitNothingIsFollowedAndAPageWithoutTitleGetsAnEmptyOne() {
        SpiderOutput output = new TitlesSpider().parse(new TestPage("<p>no head</p>", Map.of("curdepth", 1, "maxdepth", 1), LINKS));
        assertEquals("", output.fields().get("title"));
        assertTrue(output.follow().isEmpty());
        assertTrue(output.links().isEmpty());
    }

    @Test
    void theLinkFilterRefusesQueriesUnlessPagingIsAllowed() {
        NoQueryLinks filter = new NoQueryLinks();
        Page page = new TestPage("", Map.of(), List.of());
        filter.configure(name -> java.util.Optional.empty());
        assertTrue(filter.allows(new PageLink("http://shop.example/a", ""), page));
        assertFalse(filter.allows(new PageLink("http://shop.example/a?page=2", ""), page));
        ExtensionSettings paging = name -> java.util.Optional.of("true");
        filter.configure(paging);
        assertTrue(filter.allows(new PageLink("http://shop.example/a?page=2", ""), page));
        assertFalse(filter.allows(new PageLink("http://shop.example/a?sort=price", ""), page));
    }
}
