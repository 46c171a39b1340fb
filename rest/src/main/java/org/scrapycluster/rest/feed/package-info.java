/**
 * {@code POST /feed} (docs/compatibility.md §6.4): requests checked against the request schemas, sent to
 * the incoming topic, and their answers correlated by {@code uuid} as they come back on the
 * outbound topic — handed to the waiting caller, or parked for {@code /poll}.
 */
package org.scrapycluster.rest.feed;
