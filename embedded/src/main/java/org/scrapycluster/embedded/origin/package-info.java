/**
 * The test origin: an in-process HTTP server that serves a deterministic synthetic web on many loopback
 * addresses, with named routes for the situations a crawler meets (slow bodies, 429s, flaky servers,
 * redirect loops, compression, huge and non-UTF-8 pages, robots.txt), so that tests and benchmarks crawl
 * "many hosts" without the internet.
 */
package org.scrapycluster.embedded.origin;
