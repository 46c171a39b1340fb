/** The Redis monitor's benchmark: answer times of info and stats on a large backlog, {@code scrapy-cluster bench redis-monitor}. */
package org.scrapycluster.bench.jobs;
