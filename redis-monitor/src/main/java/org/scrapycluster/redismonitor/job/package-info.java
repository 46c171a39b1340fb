/**
 * Running jobs: the plugin contract, and finding, locking, handling, answering, retrying and
 * deleting the job keys the Kafka monitor writes (docs/compatibility.md §3.2), by scan and by signal.
 */
package org.scrapycluster.redismonitor.job;
