/** Triton's Prometheus metrics, read from the core's statistics at scrape time. */
package io.ingot.server.metrics;
