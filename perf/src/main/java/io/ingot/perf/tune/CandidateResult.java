package io.ingot.perf.tune;

import io.ingot.perf.LevelResult;

/**
 * What a sweep measured of one candidate: its load level's result, or why it could not be measured.
 *
 * @param number    the candidate's number in the sweep, from 1 (the model's current configuration)
 * @param candidate the configuration
 * @param result    the measurement, or {@code null} when the candidate did not load or every request failed
 * @param error     why it was not measured, or the first request error of a measured one; {@code null} for none
 * @param budgetUs  the latency budget, microseconds
 */
public record CandidateResult(int number, Candidate candidate, LevelResult result, String error, double budgetUs)
{
    /** @return whether it was measured */
    public boolean measured()
    {
        return result != null && Double.isFinite(result.latencyUs().p99());
    }

    /** @return inferences per second, 0 when not measured */
    public double throughput()
    {
        return measured() ? result.inferencesPerSecond() : 0;
    }

    /** @return the 99th percentile latency, microseconds; NaN when not measured */
    public double p99Us()
    {
        return measured() ? result.latencyUs().p99() : Double.NaN;
    }

    /** @return the median latency, microseconds; NaN when not measured */
    public double p50Us()
    {
        return measured() ? result.latencyUs().p50() : Double.NaN;
    }

    /** @return whether it was measured without a failed request and its p99 is within the budget */
    public boolean meetsBudget()
    {
        return measured() && result.errors() == 0 && p99Us() <= budgetUs;
    }
}
