/**
 * The job keys through which the Kafka monitor hands info, stop, stats and zookeeper requests to
 * the Redis monitors, and the signal list that wakes a Redis monitor as soon as one is written.
 */
package org.scrapycluster.common.jobs;
