/**
 * {@code scrapy-cluster bench}: the benchmarks, kept in a module of their own so that no service's jar
 * carries them. The parent command starts the servers a benchmark needs (embedded, on free ports, unless
 * given); each benchmark is a {@link org.scrapycluster.bench.BenchmarkCommand} found by
 * {@link java.util.ServiceLoader}; {@code bench round-trip} measures across services, a request on Kafka to
 * its answer on Kafka. The standalone jar includes this module, so the command is there as before.
 */
package org.scrapycluster.bench;
