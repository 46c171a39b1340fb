/**
 * The Redis monitor service: runs the info, stop, expire, stats and zookeeper jobs the Kafka
 * monitor writes into Redis, returns expired leases to their queues, and announces finished crawls.
 */
package org.scrapycluster.redismonitor;
