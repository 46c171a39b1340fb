/**
 * The REST gateway as a service (docs/compatibility.md §6): its settings, its links to Kafka and Redis,
 * its heartbeat, its routes, and the index, {@code /metrics} and {@code /health} endpoints.
 */
package org.scrapycluster.rest.gateway;
