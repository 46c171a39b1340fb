package org.scrapycluster.crawler.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.common.settings.SettingsSources;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** Closing the pipelines when the node stops: every stage is closed, whatever one of them throws. */
class PipelinesCloseTest {

    @Test
    void aStageWhoseCloseThrowsDoesNotKeepTheStagesBeforeItFromClosing() {
        ClosingPipelines.CLOSED.clear();
        Settings settings = Settings.load("crawler", new SettingsSources(null, Map.of(), Map.of("ITEM_PIPELINES",
                "{logging: null, kafka: null, " + ClosingPipelines.Flushing.class.getName() + ": 100, "
                        + ClosingPipelines.Unclosable.class.getName() + ": 200}")));
        Pipelines pipelines = Pipelines.open(new PipelineContext(settings, "link",
                new CrawlerMetrics(new SimpleMeterRegistry(), "link", "n1"), new HealthRegistry(), Clock.systemUTC()));

        pipelines.close();

        assertEquals(List.of("flushing"), List.copyOf(ClosingPipelines.CLOSED), "the stage before the one that threw is closed too");
    }
}
