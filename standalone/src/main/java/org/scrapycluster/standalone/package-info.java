/**
 * The {@code scrapy-cluster} command line, and {@code standalone}: the whole cluster in one JVM
 * with embedded Kafka, ZooKeeper and Redis where no external ones are configured; {@code train}, the same
 * cluster crawling a synthetic site, is the training run of the JVM's ahead-of-time cache.
 */
package org.scrapycluster.standalone;
