/**
 * {@code scrapy-cluster bench outside}: crawls into a cluster that runs already, watched from outside it as
 * docs/benchmarks.md ("How it is measured", in "CPU per page") measures one: pages a second by the results' own
 * timestamps, and CPU a page of the processes named, read from {@code /proc}.
 */
package org.scrapycluster.bench.outside;
