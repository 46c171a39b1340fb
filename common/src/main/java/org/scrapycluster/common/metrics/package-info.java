/**
 * Prometheus metrics (Micrometer) and named health checks, served over HTTP as
 * {@code GET /metrics} and {@code GET /health}.
 */
package org.scrapycluster.common.metrics;
