package org.scrapycluster.standalone.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.scrapycluster.crawler.node.CrawlerFactory;
import org.scrapycluster.kafkamonitor.KafkaMonitorFactory;
import org.scrapycluster.redismonitor.RedisMonitorFactory;
import org.scrapycluster.rest.RestFactory;
import org.scrapycluster.rest.testing.TlsFixtures;
import org.scrapycluster.embedded.EmbeddedStack;
import org.scrapycluster.embedded.junit.SharedStack;
import org.scrapycluster.embedded.origin.SyntheticSite;
import org.scrapycluster.embedded.origin.TestOrigin;
import org.scrapycluster.standalone.acceptance.MonitoringQueries.Query;

/**
 * Every metric name that the Grafana dashboard and the Prometheus alert rules of
 * {@code deploy/monitoring/} read is exported on {@code /metrics} of a running cluster, during a
 * small crawl that also has a download that fails, a page whose links are filed, a request that is
 * refused and a throttle that makes the crawler wait; and every label a query matches on or groups
 * by, or its legend or alert fills in, is a label of a metric it reads (an alert grouped by a label
 * no series has fires without it, or never). Names are collected over the scrapes of the crawl.
 * A backlog exists only while requests are queued, and the monitor looks for spiders with queues
 * at most every 39 times its last look's duration: one request is for a spider no crawler runs, so
 * that it stays queued until a look finds it, however slow the machine. The cluster's gateway serves HTTPS, whose
 * certificate's expiry an alert reads. Every meter of the services' own that the
 * crawl exported is named in docs/operations.md, "Monitoring", whose table gives the names as
 * Prometheus shows them.
 */
@ExtendWith(SharedStack.class)
class MonitoringNamesAcceptanceTest {

    private static final SyntheticSite SITE = SyntheticSite.builder().seed(21).domains(1).pagesPerDomain(12).linksPerPage(2)
            .pageBytes(400).build();
    private static final Duration CRAWL = Duration.ofMinutes(2);

    @Test
    void everyNameAndLabelTheDashboardAndTheAlertRulesUseIsExported(EmbeddedStack stack, @TempDir Path tls) throws Exception {
        List<Query> queries = MonitoringQueries.queries();
        Set<String> used = new TreeSet<>();
        for (Query query : queries) {
            used.addAll(MonitoringQueries.metricNames(query.expression()));
        }
        assertTrue(used.size() > 15, "the queries were read: " + used);
        // what the crawl must have exported too before the names are compared with docs/operations.md: the links filed
        Set<String> awaited = new TreeSet<>(used);
        awaited.add("crawler_enqueued_total");

        try (TestOrigin origin = TestOrigin.start(SITE);
             AcceptanceCluster cluster = new AcceptanceCluster(stack).throttle(4, 1, false)
                     .set("METRICS_HOST", "127.0.0.1").set("METRICS_PORT", 0).set("BACKLOG_METRICS_PERIOD", "0.5")
                     .set("RETRY_TIMES", 0).set("FLASK_PORT", 0)
                     .set("REST_TLS_CERT_FILE", TlsFixtures.copy("server.crt", tls.resolve("tls.crt")))
                     .set("REST_TLS_KEY_FILE", TlsFixtures.copy("server.key", tls.resolve("tls.key")))
                     .start(1, new KafkaMonitorFactory(), new RedisMonitorFactory(), new CrawlerFactory(), new RestFactory());
             HttpClient http = HttpClient.newHttpClient()) {
            String appid = AcceptanceCluster.unique("app");
            cluster.feedEveryPage(origin, appid, "names");
            // one page followed a level down, so that its links are filed (crawler_enqueued_total)
            cluster.send("url", origin.pageUrl(SITE.pages().get(0)), "appid", appid, "crawlid", "links", "maxdepth", 1);
            cluster.send("url", "http://127.0.0.1:1/refused", "appid", appid, "crawlid", "names");
            cluster.send("url", "ftp://example.com/not-http", "appid", appid, "crawlid", "names");
            cluster.send("url", origin.pageUrl(SITE.pages().get(1)), "appid", appid, "crawlid", "parked", "spiderid", "parked");

            Map<String, Set<String>> exported = new TreeMap<>();
            try {
                Awaitility.await().atMost(CRAWL).pollInterval(Duration.ofMillis(250)).until(() -> {
                    MonitoringQueries.sampleLabels(scrape(http, cluster.metricsAddress()))
                            .forEach((name, labels) -> exported.computeIfAbsent(name, n -> new TreeSet<>()).addAll(labels));
                    return exported.keySet().containsAll(awaited) && missingLabels(queries, exported).isEmpty();
                });
            } catch (ConditionTimeoutException e) {
                Set<String> missing = new TreeSet<>(awaited);
                missing.removeAll(exported.keySet());
                assertTrue(missing.isEmpty(),
                        "metrics that deploy/monitoring/ reads (or the crawl files) and no service exported: " + missing);
                fail("deploy/monitoring/ uses labels that none of the metrics its query reads has: " + missingLabels(queries, exported));
            }
            // docs/operations.md, "Monitoring", gives "the names, as Prometheus shows them": every meter a service exported
            // during the crawl is named there
            assertEquals(Set.of(), MonitoringQueries.undocumented(exported.keySet(), MonitoringQueries.monitoringSection()),
                    "metrics exported during the crawl that docs/operations.md, \"Monitoring\", does not name");
        }
    }

    /** Each query's labels that no metric it reads has, by query. */
    private static Map<String, Set<String>> missingLabels(List<Query> queries, Map<String, Set<String>> exported) {
        Map<String, Set<String>> missing = new TreeMap<>();
        for (Query query : queries) {
            Set<String> labels = new TreeSet<>(query.labels());
            MonitoringQueries.metricNames(query.expression()).forEach(name -> labels.removeAll(exported.getOrDefault(name, Set.of())));
            if (!labels.isEmpty()) {
                missing.put(query.expression(), labels);
            }
        }
        return missing;
    }

    private static String scrape(HttpClient http, InetSocketAddress address) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + "/metrics"))
                .timeout(Duration.ofSeconds(10)).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
    }
}
