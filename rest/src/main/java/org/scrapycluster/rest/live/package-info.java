/**
 * The live view behind the web UI ({@code GET /live}, docs/rest.md "Live view"): the cluster's
 * nodes, active and completed crawls, busiest domains with their throttle state, and the series of
 * the UI's charts, read from the keys the services already keep in Redis and ZooKeeper. The
 * gateway reads them once per refresh on a timer of its own and serves the same snapshot to every
 * open page, so the Redis work does not grow with the number of browsers.
 */
package org.scrapycluster.rest.live;
