/**
 * The {@code scrapy-cluster} command line, and {@code standalone}: the whole cluster in one JVM
 * with embedded Kafka, ZooKeeper and Redis where no external ones are configured.
 */
package org.scrapycluster.standalone;
