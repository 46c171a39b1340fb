package org.scrapycluster.crawler.node;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.awaitility.Awaitility;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.service.NodeIdentity;
import org.scrapycluster.common.service.ServiceContext;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * A crawler node in a JVM of its own, for tests that kill one: {@code NAME=VALUE} arguments are its
 * settings; it prints {@value #READY} once started and connected to Redis, and runs until it is killed.
 */
public final class CrawlerNodeMain {

    static final String READY = "crawler node ready";

    private CrawlerNodeMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String arg : args) {
            int equals = arg.indexOf('=');
            settings.put(arg.substring(0, equals), arg.substring(equals + 1));
        }
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        HealthRegistry health = new HealthRegistry();
        CrawlerNode node = new CrawlerNode(new ServiceContext(Settings.load("crawler", new SettingsSources(null, Map.of(), settings)),
                registry, registry, health, NodeIdentity.create(), Clock.systemUTC()));
        node.start();
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                .until(() -> health.check().checks().get("redis").isUp());
        System.out.println(READY);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
