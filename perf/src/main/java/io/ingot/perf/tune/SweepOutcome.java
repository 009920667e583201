package io.ingot.perf.tune;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Reads a finished sweep: its Pareto front and its best candidate.
 *
 * <p>The best candidate is the one with the most throughput among those within the budget; throughputs within
 * {@link #THROUGHPUT_TIE} of the highest count as equal (the difference is the machine's noise, and under an open
 * loop every candidate that keeps up has the offered rate), and of those the lowest p99 wins.
 *
 * @param results every candidate, in the order measured
 */
public record SweepOutcome(List<CandidateResult> results)
{
    /** Relative throughput difference treated as a tie. */
    public static final double THROUGHPUT_TIE = 0.02;

    /** Copies the list. */
    public SweepOutcome
    {
        results = List.copyOf(results);
    }

    /**
     * @return the measured candidates no other beats on both throughput (higher) and p99 (lower), by throughput
     */
    public List<CandidateResult> paretoFront()
    {
        final List<CandidateResult> byThroughput = results.stream().filter(CandidateResult::measured)
            .sorted(Comparator.comparingDouble(CandidateResult::throughput).reversed()
                .thenComparingDouble(CandidateResult::p99Us))
            .toList();
        final List<CandidateResult> front = new ArrayList<>();
        double lowestP99 = Double.POSITIVE_INFINITY;
        for (final CandidateResult result : byThroughput)
        {
            if (result.p99Us() < lowestP99)
            {
                front.add(result);
                lowestP99 = result.p99Us();
            }
        }
        return front.reversed();
    }

    /** @return the best candidate within the budget, if any */
    public Optional<CandidateResult> best()
    {
        final double top = results.stream().filter(CandidateResult::meetsBudget)
            .mapToDouble(CandidateResult::throughput).max().orElse(-1);
        return results.stream().filter(CandidateResult::meetsBudget)
            .filter(result -> result.throughput() >= top * (1 - THROUGHPUT_TIE))
            .min(Comparator.comparingDouble(CandidateResult::p99Us));
    }

    /** @return when none meets the budget, the measured candidate closest to it (lowest p99), if any */
    public Optional<CandidateResult> closestMiss()
    {
        return results.stream().filter(CandidateResult::measured)
            .min(Comparator.comparingDouble(CandidateResult::p99Us));
    }
}
