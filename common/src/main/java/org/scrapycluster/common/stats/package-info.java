/**
 * Service statistics in Redis at the original's key names: rolling-window counters as bucketed
 * hashes, lifetime HyperLogLogs, the in-memory recorder that flushes them once a second, their
 * reader, and heartbeats.
 */
package org.scrapycluster.common.stats;
