/**
 * The Kafka monitor (docs/compatibility.md §2): request intake from Kafka into Redis, run by
 * {@code scrapy-cluster kafka-monitor} or inside {@code standalone}, with the {@code feed} and
 * {@code dump} tools.
 */
package org.scrapycluster.kafkamonitor;
