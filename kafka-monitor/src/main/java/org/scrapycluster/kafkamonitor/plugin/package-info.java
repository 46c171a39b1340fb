/**
 * What a Kafka monitor plugin is (a JSON schema and a handler turning a matching request into
 * Redis writes) and the four built-in ones: crawl, action, stats and ZooKeeper requests.
 */
package org.scrapycluster.kafkamonitor.plugin;
