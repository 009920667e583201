package io.ingot.perf.tune;

import io.ingot.perf.LevelResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Pareto front and the choice of the best candidate. */
class SweepOutcomeTest
{
    private static final double BUDGET_US = 10_000;

    @Test
    void frontHoldsTheCandidatesNoOtherBeatsOnBoth()
    {
        final SweepOutcome outcome = new SweepOutcome(List.of(result(1, 100, 2_000), result(2, 300, 5_000),
            result(3, 200, 6_000), result(4, 500, 20_000), result(5, 250, 1_500), failed(6)));
        // #3 is beaten by #2 (more throughput, less p99); #1 by #5.
        assertEquals(List.of(5, 2, 4), outcome.paretoFront().stream().map(CandidateResult::number).toList());
    }

    @Test
    void bestIsTheMostThroughputWithinTheBudgetTiesGoingToTheLowerP99()
    {
        final SweepOutcome outcome = new SweepOutcome(List.of(result(1, 100, 2_000), result(2, 300, 9_000),
            result(3, 297, 4_000), result(4, 500, 20_000)));
        // #4 misses the budget; #2 and #3 are within 2% of each other, and #3 has the lower p99.
        assertEquals(3, outcome.best().orElseThrow().number());
    }

    @Test
    void noBestWhenEveryCandidateMissesAndTheClosestIsNamed()
    {
        final SweepOutcome outcome = new SweepOutcome(List.of(result(1, 100, 12_000), result(2, 300, 30_000),
            failed(3)));
        assertTrue(outcome.best().isEmpty());
        assertEquals(1, outcome.closestMiss().orElseThrow().number());
    }

    @Test
    void aCandidateWithFailedRequestsDoesNotMeetTheBudget()
    {
        final CandidateResult withErrors = new CandidateResult(1, candidate(), level(100, 1_000, 3), "boom",
            BUDGET_US);
        assertTrue(withErrors.measured());
        assertTrue(!withErrors.meetsBudget());
    }

    static CandidateResult result(final int number, final double throughput, final double p99Us)
    {
        return new CandidateResult(number, candidate(), level(throughput, p99Us, 0), null, BUDGET_US);
    }

    private static CandidateResult failed(final int number)
    {
        return new CandidateResult(number, candidate(), null, "did not load", BUDGET_US);
    }

    private static Candidate candidate()
    {
        return new Candidate(1, 8, true, List.of(), 0, Map.of());
    }

    private static LevelResult level(final double throughput, final double p99Us, final long errors)
    {
        return new LevelResult(1, 1000, errors, 0, 1, throughput, throughput,
            new LevelResult.Latency(1, p99Us / 2, p99Us, p99Us, p99Us, p99Us, p99Us, p99Us / 2, 1), 1, 1, 0, 1, 3,
            true, true, 0);
    }
}
