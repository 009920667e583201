package io.ingot.server.metrics;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PrometheusTextWriterTest
{
    @Test
    void keepsTritonsCounterNamesWithoutTotalSuffix()
    {
        final MetricSnapshots snapshots = MetricSnapshots.of(
            CounterSnapshot.builder().name("nv_inference_request_success").help("Number of successful requests")
                .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                    .labels(Labels.of("model", "a\"b", "version", "1")).value(3).build())
                .build(),
            GaugeSnapshot.builder().name("nv_inference_pending_request_count").help("pending")
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(Labels.of("model", "m"))
                    .value(0.5).build())
                .build());
        assertEquals("""
            # HELP nv_inference_pending_request_count pending
            # TYPE nv_inference_pending_request_count gauge
            nv_inference_pending_request_count{model="m"} 0.5
            # HELP nv_inference_request_success Number of successful requests
            # TYPE nv_inference_request_success counter
            nv_inference_request_success{model="a\\"b",version="1"} 3
            """, PrometheusTextWriter.write(snapshots));
    }
}
