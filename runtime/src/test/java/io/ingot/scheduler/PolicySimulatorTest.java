package io.ingot.scheduler;

import org.junit.jupiter.api.Test;

import static io.ingot.scheduler.SloComparison.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The policies in the discrete-event simulation ({@link PolicySimulator}), a few short runs of the cost model
 * {@code 2000 + 100·s} µs on two instances (SLO 10 ms): what a user of the adaptive policy relies on, and that the
 * simulation itself is sound. Each run is two simulated seconds; the whole class takes a few seconds.
 */
class PolicySimulatorTest
{
    private static final long A = 2_000_000L;
    private static final long B = 100_000L;
    private static final long SLO = 10 * MS;
    private static final long LENGTH = 2_000 * MS;
    private static final long WARMUP = 300 * MS;

    private static PolicySimulator.Result run(final SimContender contender, final SimArrivals arrivals,
        final double rate, final SimCost cost)
    {
        return PolicySimulator.run(contender.policy(), 2, cost, arrivals.times(rate, LENGTH, 7), rate, SLO, WARMUP,
            11);
    }

    @Test
    void noRequestIsLostByAnyPolicyEvenBeyondCapacity()
    {
        final SimCost cost = SimCost.jittered(A, B);
        for (final SimContender contender : new SimContender[] {SimContender.adaptive(2, SLO),
            SimContender.aimd(2, SLO), SloComparison.bundled(), SimContender.dynamic(4, 0, java.util.List.of())})
        {
            for (final double rate : new double[] {500, 4_000, 10_000})
            {
                final PolicySimulator.Result result = run(contender, new SimArrivals.Bursty(4, 100 * MS), rate, cost);
                assertEquals(0, result.lost(), contender.name() + " at " + rate + "/s");
                assertEquals(0, result.ended(), contender.name() + " at " + rate + "/s: nothing times out");
            }
        }
    }

    @Test
    void adaptiveKeepsTheSloAtHalfTheCapacityUnderEveryArrivalProcess()
    {
        for (final SimArrivals arrivals : new SimArrivals[] {new SimArrivals.Constant(), new SimArrivals.Poisson(),
            new SimArrivals.Bursty(4, 100 * MS)})
        {
            // Bursty arrivals at four times the mean during a quarter of the time: half of capacity is 2x at the peak.
            final double rate = arrivals instanceof SimArrivals.Bursty ? 1_500 : 4_400;
            final PolicySimulator.Result result = run(SimContender.adaptive(2, SLO), arrivals, rate,
                SimCost.jittered(A, B));
            assertTrue(result.p99Ns() <= SLO, arrivals.name() + ": p99 " + result.p99Ns() + " ns");
            assertTrue(result.overSlo() <= 0.01, arrivals.name() + ": " + result.overSlo() + " over the SLO");
            assertTrue(result.meanBatch() > 2, arrivals.name() + ": it batches (" + result.meanBatch() + ")");
        }
    }

    @Test
    void adaptiveServesLoneRequestsAsFastAsUnbatched()
    {
        // One request every 10 ms: each arrives after the previous response, as at concurrency 1.
        final SimCost exact = new SimCost(A, B, 0, 0, 0, 0);
        final PolicySimulator.Result result = run(SimContender.adaptive(2, SLO), new SimArrivals.Constant(), 100,
            exact);
        assertEquals(1.0, result.meanBatch(), 1e-9);
        assertTrue(result.meanNs() <= 1.1 * exact.meanNs(1), "mean " + result.meanNs() + " ns against "
            + exact.meanNs(1) + " unbatched");
    }

    @Test
    void theSimulationIsDeterministic()
    {
        final SimCost cost = SimCost.jittered(A, B);
        final SimArrivals poisson = new SimArrivals.Poisson();
        assertEquals(run(SimContender.adaptive(2, SLO), poisson, 5_000, cost),
            run(SimContender.adaptive(2, SLO), poisson, 5_000, cost));
    }

    @Test
    void burstyArrivalsKeepTheMeanRateAndComeInOnPhases()
    {
        final long[] times = new SimArrivals.Bursty(4, 100 * MS).times(2_000, 10_000 * MS, 3);
        assertEquals(20_000, times.length, 600, "the mean rate over whole periods");
        for (final long time : times)
        {
            assertTrue(time % (100 * MS) < 25 * MS, "arrivals only in the first quarter of each period: " + time);
        }
    }
}
