/** What a crawler node measures: Micrometer meters for pages, bytes, latency, leases, throttle waits and errors. */
package org.scrapycluster.crawler.metrics;
