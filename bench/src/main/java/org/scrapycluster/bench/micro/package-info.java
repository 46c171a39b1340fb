/**
 * JMH micro benchmarks of the per-page work on one thread — URL canonicalisation and fingerprints, link
 * extraction, body decoding, queue member encoding, the Redis arguments of a call, a request's validation,
 * the meta refresh look — run by {@code scrapy-cluster bench micro}.
 */
package org.scrapycluster.bench.micro;
