package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.common.keyspace.Keyspace;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.LinkFarm;
import org.scrapycluster.embedded.origin.TestOrigin;

/**
 * A page as large as the download limit lets through (9 MB), listing as many links as fit: a node with a heap of
 * {@value #HEAP} files every link it reads of a page (the first {@value #READ}) and publishes the page without its body
 * and links, and stays up. Before, such a page
 * exhausted the heap of the node that took it (each link's member encoded before the first call, each child's meta
 * put together and kept, the whole message written before it was found too large), and of each node that took its
 * request up next.
 */
@ExtendWith(SharedStack.class)
class LargePageTest {

    private static final int LINKS = 200_000;
    /** The links read of one page (AnchorScanner.MOST_ANCHORS, docs/differences.md). */
    private static final int READ = 100_000;
    private static final String HEAP = "256m";

    @Test
    void aNodeWithASmallHeapFilesTheLinksItReadsOfAHugePageAndPublishesItWithoutThem(EmbeddedStack stack) throws IOException {
        try (TestOrigin origin = TestOrigin.builder().domains(1).start(); CrawlerTestBed bed = new CrawlerTestBed(stack)) {
            bed.set("ROBOTSTXT_OBEY", false);
            String url = origin.url(0, LinkFarm.path(LINKS));
            Map<String, Object> seed = CrawlerTestBed.feedItem(url, "farm");
            seed.put("maxdepth", 1);
            bed.seed(seed);

            ChildNode child = ChildNode.start(bed, HEAP);
            try {
                Awaitility.await().atMost(Duration.ofSeconds(120)).until(() -> !child.process().isAlive()
                        || bed.results().stream().anyMatch(result -> result.get("url").asText().equals(url)));
                assertTrue(child.process().isAlive(), child.log());
                JsonNode page = bed.results().stream().filter(result -> result.get("url").asText().equals(url)).findFirst().orElseThrow();
                assertTrue(page.get("body_omitted").asBoolean() && page.get("links_omitted").asBoolean(), page.toString());
                Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> !child.process().isAlive()
                        || bed.redis().sync().scard(Keyspace.dupefilter("link", "farm")) == READ + 1);
                assertTrue(child.process().isAlive(), child.log());
                assertEquals(List.of(), child.log().lines().filter(line -> line.contains("ERROR")).toList());
            } finally {
                child.process().destroyForcibly();
            }
        }
    }
}
