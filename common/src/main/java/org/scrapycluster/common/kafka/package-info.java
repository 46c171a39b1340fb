/** Kafka producers, consumers and topic names, set up from the {@code KAFKA_*} settings. */
package org.scrapycluster.common.kafka;
