/** Sending the Redis monitor's answers to {@code <prefix>.outbound_firehose} (and per-app topics) on Kafka. */
package org.scrapycluster.redismonitor.outbound;
