/** Measurements of the crawl queues against a real Redis, run from the command line. */
package org.scrapycluster.bench.throttle;
