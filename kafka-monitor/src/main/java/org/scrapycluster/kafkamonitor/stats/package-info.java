/**
 * What the Kafka monitor counts: its statistics in Redis at the original's key names with the
 * periodic stats dump, and its Micrometer meters.
 */
package org.scrapycluster.kafkamonitor.stats;
