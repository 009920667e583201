/** Per-model-version statistics, counted as Triton counts them (statistics extension and Prometheus metrics). */
package io.ingot.stats;
