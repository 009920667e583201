package io.ingot.repository;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelMetrics;

import java.util.Set;
import java.util.function.Consumer;

/**
 * What a model's {@code model_metrics.metric_control} asks of the metric families, checked where Triton checks it:
 * when the model loads, after its configuration is valid. Triton's core lets a configuration re-bucket only its own
 * customizable histograms and warns, without failing the load, about any other family ({@code
 * MetricReporterConfig} in Triton's {@code metric_model_reporter.cc}); Ingot does the same with Triton's text.
 * Ingot does not export Triton's one customizable histogram, {@value #FIRST_RESPONSE_HISTOGRAM}, so options for it
 * are accepted, as Triton accepts them, and have nothing to change: a warning says so. Stateless; thread-safe.
 */
final class MetricControls
{
    /** Triton's only customizable metric family (its {@code metric_map_}). */
    static final String FIRST_RESPONSE_HISTOGRAM = "nv_inference_first_response_histogram_ms";

    private static final Set<String> CUSTOMIZABLE = Set.of(FIRST_RESPONSE_HISTOGRAM);

    private MetricControls()
    {
    }

    /**
     * @param config   the model's validated configuration
     * @param warnings receives one warning for each metric control naming a family no histogram option can change
     */
    static void warn(final ModelConfig config, final Consumer<String> warnings)
    {
        for (final ModelMetrics.MetricControl control : config.getModelMetrics().getMetricControlList())
        {
            final String family = control.getMetricIdentifier().getFamily();
            if (!CUSTOMIZABLE.contains(family))
            {
                warnings.accept("Metric family '" + family + "' in 'metric_identifier' is not a customizable metric"
                    + " in Triton core.");
            }
            else
            {
                warnings.accept("model '" + config.getName() + "': metric family '" + family + "' is not exported"
                    + " by Ingot; its histogram_options have no effect");
            }
        }
    }
}
