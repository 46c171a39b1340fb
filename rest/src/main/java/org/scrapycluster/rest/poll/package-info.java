/**
 * Answers nobody waited for, parked in Redis at {@code rest:poll:<uuid>} with a time to live, and
 * the {@code /poll} endpoint that hands each out once (docs/compatibility.md §6.5).
 */
package org.scrapycluster.rest.poll;
