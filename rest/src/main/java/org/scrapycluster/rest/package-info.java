/**
 * The REST gateway (docs/compatibility.md §6): HTTP in front of Kafka and Redis with a web UI, run by
 * {@code scrapy-cluster rest} or inside {@code standalone}.
 */
package org.scrapycluster.rest;
