/**
 * The gateway's links to Redis and Kafka: each is set up in the background with back-off (neither
 * has to be reachable at start), says at once whether it works now, and never makes a caller wait
 * longer than its timeout.
 */
package org.scrapycluster.rest.link;
