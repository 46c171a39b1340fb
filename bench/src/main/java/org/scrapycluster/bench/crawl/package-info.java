/**
 * {@code scrapy-cluster bench crawl}: end-to-end throughput of one crawler node, run as a JVM of its own
 * against a synthetic site, with its CPU time and resident memory read from {@code /proc}.
 */
package org.scrapycluster.bench.crawl;
