package io.ingot.server.testing;

import io.ingot.api.BatchStatistics;
import io.ingot.api.FailureReason;
import io.ingot.api.InferStatistics;
import io.ingot.api.ModelStatistics;
import io.ingot.api.StatDuration;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Hand-made statistics records for renderer tests. */
public final class StatisticsSamples
{
    private StatisticsSamples()
    {
    }

    /** @return statistics of a model "m" version "1" with distinct numbers in every field. */
    public static ModelStatistics sample()
    {
        final InferStatistics infer = new InferStatistics(new StatDuration(10, 1000), new StatDuration(2, 200),
            new StatDuration(10, 300), new StatDuration(10, 40), new StatDuration(10, 500), new StatDuration(10, 60),
            StatDuration.ZERO, StatDuration.ZERO);
        final Map<FailureReason, Long> failures = new EnumMap<>(FailureReason.class);
        failures.put(FailureReason.REJECTED, 1L);
        failures.put(FailureReason.CANCELED, 0L);
        failures.put(FailureReason.BACKEND, 1L);
        failures.put(FailureReason.OTHER, 0L);
        return new ModelStatistics("m", "1", 1_700_000_000_123L, 12, 4, infer,
            List.of(new BatchStatistics(2, new StatDuration(2, 20), new StatDuration(2, 200), new StatDuration(2, 30)),
                new BatchStatistics(4, new StatDuration(2, 21), new StatDuration(2, 201), new StatDuration(2, 31))),
            failures, 3, Map.of("request", 1L, "queue", 0L, "compute_input", 0L, "compute_infer", 0L,
                "compute_output", 0L));
    }
}
