package org.scrapycluster.standalone.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.PageRef;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;
import org.scrapycluster.redismonitor.OutboundAnswers;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The example project's own jar, {@code examples/titles-spider/target/titles-spider.jar}, as a user deploys it: in a
 * plugin folder (the build copies it into {@code target/example-plugins}, on no class path), a crawler with
 * {@code SPIDER_NAME=titles} crawls a request fed through Kafka, and every result carries its page's {@code title}.
 */
@ExtendWith(SharedStack.class)
class TitlesSpiderAcceptanceTest {

    private static final Path PLUGINS = Path.of("target", "example-plugins");
    private static final SyntheticSite SITE = SyntheticSite.builder().seed(5).domains(1).pagesPerDomain(6).linksPerPage(2)
            .pageBytes(300).build();
    private static final PageRef START = new PageRef(0, 0);

    @Test
    void theExampleSpidersJarFromAPluginFolderAddsEachPagesTitle(EmbeddedStack stack) {
        assertTrue(Files.isRegularFile(PLUGINS.resolve("titles-spider.jar")), "the build copies the example's jar into " + PLUGINS);
        String appid = AcceptanceCluster.unique("titles");
        try (TestOrigin origin = TestOrigin.start(SITE);
                AcceptanceCluster cluster = new AcceptanceCluster(stack).set("PLUGIN_DIRS", PLUGINS.toAbsolutePath().toString())
                        .set("SPIDER_NAME", "titles").throttle(1000, 1, false).startWithCrawlers(1)) {
            cluster.send("url", origin.pageUrl(START), "appid", appid, "crawlid", "titles", "spiderid", "titles", "maxdepth", 1);

            Map<String, PageRef> expected = SITE.reachable(START, 1, page -> true).stream()
                    .collect(Collectors.toMap(origin::pageUrl, Function.identity()));
            Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> {
                cluster.results().readFor(Duration.ofMillis(100));
                return results(cluster, appid).size() >= expected.size();
            });
            List<JsonNode> results = results(cluster, appid);
            assertEquals(expected.keySet(), results.stream().map(result -> result.get("url").asText()).collect(Collectors.toSet()));
            for (JsonNode result : results) {
                assertEquals(SITE.title(expected.get(result.get("url").asText())), result.path("title").asText(), result.toString());
            }
            assertTrue(expected.size() > 1, "the spider followed links");
        }
    }

    private static List<JsonNode> results(AcceptanceCluster cluster, String appid) {
        return cluster.results().receivedWithTimes().stream().map(OutboundAnswers.Received::answer)
                .filter(result -> appid.equals(result.path("appid").asText())).toList();
    }
}
