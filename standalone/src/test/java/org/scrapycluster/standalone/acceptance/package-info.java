/**
 * Acceptance tests across services: requests produced to Kafka, taken in by the Kafka monitor,
 * answered by the Redis monitor and crawled by crawler nodes, each service built by its factory and
 * run as {@code scrapy-cluster standalone} runs it, against the shared embedded Kafka, ZooKeeper and
 * Redis and the real test origin.
 */
package org.scrapycluster.standalone.acceptance;
