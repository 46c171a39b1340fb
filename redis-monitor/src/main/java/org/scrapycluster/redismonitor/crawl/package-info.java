/** The stop and expire jobs: ending a crawl cluster-wide (behaviour spec §3.6, §3.7). */
package org.scrapycluster.redismonitor.crawl;
