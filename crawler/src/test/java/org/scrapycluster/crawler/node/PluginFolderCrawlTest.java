package org.scrapycluster.crawler.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.PageRef;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;
import org.scrapycluster.embedded.plugin.PluginJar;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A user's spider, link filter and item pipeline, compiled in the test into a jar in a plugin folder (on no
 * class path), crawl through Kafka: the spider's field is in every result, the filter keeps the crawl on
 * its first host, the pipeline sees every page; each is called with its own class loader as the thread's context one.
 */
@ExtendWith(SharedStack.class)
class PluginFolderCrawlTest {

    private static final SyntheticSite SITE = SyntheticSite.builder().seed(11).domains(2).pagesPerDomain(8).linksPerPage(3)
            .crossDomainShare(0.4).pageBytes(400).build();
    private static final PageRef START = new PageRef(0, 0);
    private static TestOrigin origin;

    private final EmbeddedStack stack;

    PluginFolderCrawlTest(EmbeddedStack stack) {
        this.stack = stack;
    }

    @BeforeAll
    static void startOrigin() {
        origin = TestOrigin.builder().site(SITE).start();
    }

    @AfterAll
    static void stopOrigin() {
        origin.close();
    }

    @Test
    void aSpiderFilterAndPipelineFromTheFolderTakeEffect(@TempDir Path work) throws IOException {
        Path folder = work.resolve("plugins");
        Path seen = work.resolve("seen.txt");
        Files.createFile(seen);
        PluginJar.named("user-plugin")
                .source("com.example.MarkingSpider", """
                        package com.example;
                        import org.scrapycluster.api.*;
                        public final class MarkingSpider implements Spider {
                            private final Spider links = new org.scrapycluster.crawler.spider.LinkSpider();
                            public String name() { return "marking"; }
                            public SpiderOutput parse(Page page) {
                                boolean ownContext = Thread.currentThread().getContextClassLoader() == getClass().getClassLoader();
                                return links.parse(page).withField("marked", page.status()).withField("own_context", ownContext);
                            }
                        }
                        """)
                .source("com.example.SameHost", """
                        package com.example;
                        import org.scrapycluster.api.*;
                        public final class SameHost implements LinkFilter {
                            public String name() { return "same-host"; }
                            public boolean allows(PageLink link, Page page) {
                                return Thread.currentThread().getContextClassLoader() == getClass().getClassLoader()
                                        && java.net.URI.create(link.url()).getHost().equals(java.net.URI.create(page.url()).getHost());
                            }
                        }
                        """)
                .source("com.example.UrlLog", """
                        package com.example;
                        import java.nio.file.*;
                        import java.util.concurrent.CompletableFuture;
                        import org.scrapycluster.api.*;
                        public final class UrlLog implements ItemPipeline {
                            private Path file;
                            public String name() { return "url-log"; }
                            public void configure(ExtensionSettings settings) {
                                file = Path.of(settings.list("PLUGIN_DIRS").getFirst()).resolveSibling("seen.txt");
                            }
                            public synchronized CompletableFuture<Void> process(ResultItem item) {
                                if (Thread.currentThread().getContextClassLoader() != getClass().getClassLoader()) {
                                    return CompletableFuture.failedFuture(new IllegalStateException("called with another context"));
                                }
                                try {
                                    Files.writeString(file, item.url() + "\\n", StandardOpenOption.APPEND);
                                } catch (java.io.IOException e) {
                                    return CompletableFuture.failedFuture(e);
                                }
                                return CompletableFuture.completedFuture(null);
                            }
                        }
                        """)
                .service("org.scrapycluster.api.Spider", "com.example.MarkingSpider")
                .service("org.scrapycluster.api.LinkFilter", "com.example.SameHost")
                .service("org.scrapycluster.api.ItemPipeline", "com.example.UrlLog")
                .writeTo(folder, "1.2.3");

        try (CrawlerTestBed bed = new CrawlerTestBed(stack)) {
            bed.set("PLUGIN_DIRS", folder.toString()).set("SPIDER_NAME", "marking").set("LINK_FILTERS", "{same-host: 100}")
                    .set("ITEM_PIPELINES", "{url-log: 200}").startNode();
            Map<String, Object> seed = CrawlerTestBed.feedItem(origin.pageUrl(START), "plugin-folder");
            seed.put("spiderid", "marking");
            seed.put("maxdepth", 2);
            bed.seed(seed);

            Set<String> expected = SITE.reachable(START, 2, page -> page.domain() == 0).stream().map(origin::pageUrl)
                    .collect(Collectors.toSet());
            List<JsonNode> results = bed.awaitResults(expected.size());
            assertEquals(expected, Set.copyOf(CrawlerTestBed.urls(results)));
            results.forEach(result -> assertEquals(200, result.path("marked").asInt(), result.toString()));
            // each was called with its own class loader for context: the filter let links through, the pipeline took every page
            results.forEach(result -> assertTrue(result.path("own_context").asBoolean(), result.toString()));
            Awaitility.await().until(() -> Set.copyOf(Files.readAllLines(seen)).equals(expected));
            assertTrue(expected.size() > 1, "the crawl followed links");
        }
    }
}
