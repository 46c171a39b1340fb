package ${package};

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

import org.junit.jupiter.api.Test;
import org.scrapycluster.api.Page;
import org.scrapycluster.api.PageLink;
import org.scrapycluster.api.Spider;
import org.scrapycluster.api.SpiderOutput;

class PageSpiderTest {

    /** A page as the crawler hands it over. */
    private record TestPage(String text, Map<String, Object> meta, List<PageLink> links) implements Page {
        public String url() {
            return "http://shop.example/";
        }

        public int status() {
            return 200;
        }

        public Map<String, List<String>> headers() {
            return Map.of();
        }

        public byte[] body() {
            return text.getBytes(StandardCharsets.UTF_8);
        }

        public boolean isText() {
            return true;
        }
    }

    @Test
    void theCrawlerFindsTheSpiderByItsName() {
        List<String> names = ServiceLoader.load(Spider.class).stream().map(provider -> provider.get().name()).toList();
        assertEquals(List.of("${spiderName}"), names);
    }

    @Test
    void aPageIsPublishedWithItsSizeAndItsLinksAreFollowed() {
        List<PageLink> links = List.of(new PageLink("http://shop.example/a", "A"));
        SpiderOutput output = new PageSpider().parse(new TestPage("<html>hello</html>", Map.of("maxdepth", 1), links));
        assertEquals(18, output.fields().get("bytes"));
        assertEquals(links, output.links());
        assertEquals(1, output.follow().size());
    }
}
