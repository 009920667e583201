/**
 * Metrics a model defines for itself (Triton's custom metrics: {@code TRITONSERVER_MetricFamilyNew},
 * {@code TRITONSERVER_MetricNew}; a Python model's {@code pb_utils.MetricFamily} and {@code Metric}): a
 * {@link io.ingot.metrics.CustomMetrics} registry per core ({@link io.ingot.api.InferenceCore#customMetrics()}), which
 * backends fill and the server's metrics port exports beside Triton's own families. Thread-safe throughout.
 */
package io.ingot.metrics;
