/**
 * {@code scrapy-cluster bench}: the parent of every module's benchmark, and the servers they measure against;
 * and {@code bench round-trip}, which measures across services: a request on Kafka to its answer on Kafka.
 */
package org.scrapycluster.standalone.bench;
