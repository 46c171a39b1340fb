/**
 * The Kafka monitor service: consuming requests in batches, deciding about each record, writing
 * the batch's Redis effects pipelined, publishing rejections and committing offsets only after
 * the writes, through outages of Redis and Kafka.
 */
package org.scrapycluster.kafkamonitor.intake;
