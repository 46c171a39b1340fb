package org.scrapycluster.crawler.middleware;

import java.time.InstantSource;

import org.scrapycluster.crawler.metrics.CrawlerMetrics;
import org.scrapycluster.crawler.metrics.StatusCounters;
import org.scrapycluster.crawler.robots.RobotsCache;
import org.scrapycluster.crawler.scheduler.DomainThrottles;
import org.scrapycluster.crawler.scheduler.SchedulerInbox;

/**
 * The parts of a crawler node its built-in downloader middlewares work with.
 *
 * @param robotsObey     {@code ROBOTSTXT_OBEY}
 * @param robots         the node's robots.txt cache
 * @param throttles      the domains' throttles, told a robots.txt {@code Crawl-delay}
 * @param throttle       a domain's throttle in Redis: where it is paused cluster-wide, and its hand-outs read
 * @param scheduler      where a domain is held on this node
 * @param retry          {@code RETRY_*}
 * @param redirect       {@code REDIRECT_*}
 * @param backoff        {@code RETRY_AFTER_*}
 * @param statusCounters the original's per-status statistics
 * @param metrics        the node's meters
 * @param clock          the clock a Retry-After date and a wait for robots.txt are judged by
 */
public record MiddlewareContext(boolean robotsObey, RobotsCache robots, DomainThrottles throttles, ClusterThrottle throttle,
        SchedulerInbox scheduler, RetryPolicy retry, RedirectPolicy redirect, BackoffPolicy backoff, StatusCounters statusCounters,
        CrawlerMetrics metrics, InstantSource clock) {
}
