/**
 * The stats job (docs/compatibility.md §3.8) and the periodic stats dumps (§3.10): counters of every
 * service, crawler statistics by spider and machine, and queue backlogs, in the original's shapes.
 */
package org.scrapycluster.redismonitor.stats;
