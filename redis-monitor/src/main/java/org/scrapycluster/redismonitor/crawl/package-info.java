/** The stop and expire jobs: ending a crawl cluster-wide (docs/compatibility.md §3.6, §3.7). */
package org.scrapycluster.redismonitor.crawl;
