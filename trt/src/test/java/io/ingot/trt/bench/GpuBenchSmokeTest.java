package io.ingot.trt.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs {@link GpuBench}'s harness on host memory, so that its bookkeeping (closed-loop clients, batch gathering,
 * result rows) is exercised where there is no GPU. The numbers are not asserted: they mean nothing on the host.
 */
class GpuBenchSmokeTest
{
    @Test
    void theHarnessRunsAndReportsEveryMeasurementOnHostMemory()
    {
        assertEquals(0, GpuBench.run(GpuBench.Setup.onHost(), true));
        final Map<String, String> rows = GpuBench.rows().stream()
            .collect(Collectors.toMap(row -> row[0], row -> row[1]));
        for (final String name : List.of("identity_b1_p50", "identity_b1_p99", "mlp_batch1_throughput",
            "mlp_dynamic_throughput", "mlp_dynamic_latency_mean"))
        {
            assertTrue(rows.containsKey(name), name + " missing from " + rows.keySet());
            assertTrue(Double.parseDouble(rows.get(name)) > 0, name + " = " + rows.get(name));
        }
        final String detail = GpuBench.rows().stream().filter(row -> row[0].equals("mlp_dynamic_throughput"))
            .findFirst().orElseThrow()[3];
        assertTrue(detail.contains("mean batch"), detail);
    }
}
