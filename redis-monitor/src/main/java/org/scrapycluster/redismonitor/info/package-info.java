/** The info job: what is pending for a crawl or an app (docs/compatibility.md §3.5), from the crawl accounting. */
package org.scrapycluster.redismonitor.info;
