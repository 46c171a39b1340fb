/**
 * The REST gateway (behaviour spec §6): HTTP in front of Kafka and Redis with a web UI, run by
 * {@code scrapy-cluster rest} or inside {@code standalone}.
 */
package org.scrapycluster.rest;
