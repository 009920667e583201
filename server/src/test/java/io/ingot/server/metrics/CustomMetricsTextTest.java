package io.ingot.server.metrics;

import io.ingot.metrics.CustomMetrics;
import io.ingot.metrics.Metric;
import io.ingot.metrics.MetricFamily;
import io.ingot.metrics.MetricKind;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The families models define, written after Triton's in the text format as Triton's metrics port writes them: names
 * exactly as given ({@code _total} kept, none added), labels sorted, a histogram as count, sum and cumulative buckets
 * with {@code +Inf}; a family without metrics is not written, and one whose last holder let go is gone.
 */
class CustomMetricsTextTest
{
    @Test
    void countersGaugesAndHistogramsAreWrittenAsTritonWritesThem()
    {
        final CustomMetrics registry = new CustomMetrics();
        final MetricFamily counter = registry.family("requests_total", "requests seen", MetricKind.COUNTER);
        counter.metric(Map.of("version", "1", "model", "m"), null).increment(3);
        registry.family("queue_depth", "depth\nnow", MetricKind.GAUGE).metric(null, null).set(0.5);
        final Metric latency = registry.family("latency_s", "latency", MetricKind.HISTOGRAM)
            .metric(Map.of("model", "m"), new double[] {0.1, 1, 2.5});
        for (final double value : new double[] {0.05, 1.5, 6.0})
        {
            latency.observe(value);
        }
        registry.family("unused", "no metrics", MetricKind.COUNTER);
        final StringBuilder text = new StringBuilder();
        CustomMetricsText.write(registry, text);
        assertEquals("""
            # HELP requests_total requests seen
            # TYPE requests_total counter
            requests_total{model="m",version="1"} 3
            # HELP queue_depth depth\\nnow
            # TYPE queue_depth gauge
            queue_depth 0.5
            # HELP latency_s latency
            # TYPE latency_s histogram
            latency_s_count{model="m"} 3
            latency_s_sum{model="m"} 7.55
            latency_s_bucket{model="m",le="0.1"} 1
            latency_s_bucket{model="m",le="1"} 1
            latency_s_bucket{model="m",le="2.5"} 2
            latency_s_bucket{model="m",le="+Inf"} 3
            """, text.toString());
    }

    @Test
    void aFamilyIsFoundByNameAndLeavesWithItsLastHolder()
    {
        final CustomMetrics registry = new CustomMetrics();
        final MetricFamily first = registry.family("hits", "first", MetricKind.COUNTER);
        final MetricFamily again = registry.family("hits", "second", MetricKind.COUNTER);
        assertEquals(first, again);
        assertEquals("first", again.description(), "the first description stays");
        assertEquals("Family name already exists with different type", assertThrows(IllegalArgumentException.class,
            () -> registry.family("hits", "x", MetricKind.GAUGE)).getMessage());
        final Metric one = first.metric(Map.of("k", "a"), null);
        final Metric same = again.metric(Map.of("k", "a"), null);
        one.increment(2);
        assertEquals(2, same.value(), "the same labels are the same metric");
        assertEquals("TRITONSERVER_METRIC_KIND_COUNTER can only be incremented monotonically by non-negative "
            + "values.", assertThrows(IllegalArgumentException.class, () -> one.increment(-1)).getMessage());
        assertEquals("Bucket Boundaries must be strictly sorted", assertThrows(IllegalArgumentException.class,
            () -> registry.family("h", "", MetricKind.HISTOGRAM).metric(null, new double[] {1, 1})).getMessage());
        first.release();
        again.release();
        one.release();
        assertEquals(List.of("hits", "h"), registry.families().stream().map(MetricFamily::name).toList(),
            "a metric still held keeps its family");
        same.release();
        registry.families().stream().filter(f -> f.name().equals("h")).findFirst().orElseThrow().release();
        assertEquals(0, registry.families().size());
    }
}
