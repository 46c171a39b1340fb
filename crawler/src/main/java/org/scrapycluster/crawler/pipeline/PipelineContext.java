package org.scrapycluster.crawler.pipeline;

import java.time.Clock;

import org.scrapycluster.common.metrics.HealthRegistry;
import org.scrapycluster.common.settings.Settings;
import org.scrapycluster.crawler.metrics.CrawlerMetrics;

/**
 * What a pipeline is given when it opens.
 *
 * @param settings the crawler's settings
 * @param spiderId the node's spider
 * @param metrics  the node's meters
 * @param health   where to register health checks
 * @param clock    the clock result timestamps are read from: Redis's, as the node reads it, so that a host whose clock is off
 *                 stamps its results as the others do
 */
public record PipelineContext(Settings settings, String spiderId, CrawlerMetrics metrics, HealthRegistry health, Clock clock) {
}
