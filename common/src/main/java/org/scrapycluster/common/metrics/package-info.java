/**
 * Prometheus metrics (Micrometer) and named health checks, served over HTTP as
 * {@code GET /metrics} and {@code GET /health}; the bounds of the services' latency histograms.
 */
package org.scrapycluster.common.metrics;
