/**
 * Which request a crawler node fetches next: discovery of domains with work, the per-node readiness index,
 * the cluster-wide throttle specs (defaults, ZooKeeper, robots.txt Crawl-delay, public IP), leased
 * hand-outs within the concurrency limits, lease renewal, and filing discovered requests into Redis.
 */
package org.scrapycluster.crawler.scheduler;
