/**
 * Kafka producers, consumers and topic names, set up from the {@code KAFKA_*} settings, and the
 * stop, waits and client retries of a thread that polls a consumer.
 */
package org.scrapycluster.common.kafka;
