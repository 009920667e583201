package io.ingot.scheduler;

import java.util.SplittableRandom;

/**
 * The cost model's execution time as {@link PolicySimulator} draws it: {@code a + b·size}, times a lognormal factor
 * of median 1 (the spread of a sleep on a shared machine), plus stalls: each instance is stopped now and then, at the
 * times of a Poisson process of {@code stallsPerS}, for {@code stallMinNs} to {@code stallMaxNs} (a descheduled
 * thread, a GC pause: what the two shared cores of this VM show), and a batch running when its instance stalls takes
 * that much longer. The stalls are a process in time, not per batch, so that every policy compared at one rate meets
 * the same stalls at the same moments.
 *
 * @param aNs        the fixed cost of a batch
 * @param bNs        the cost per batch item
 * @param sigma      the lognormal factor's log-space standard deviation ({@code 0} for none)
 * @param stallsPerS stalls per second per instance ({@code 0} for none)
 * @param stallMinNs the shortest stall
 * @param stallMaxNs the longest stall
 */
record SimCost(long aNs, long bNs, double sigma, double stallsPerS, long stallMinNs, long stallMaxNs)
{
    /** The jitter the comparison uses: a 10 % lognormal spread and, per instance, a 10–40 ms stall every 10 s. */
    static SimCost jittered(final long aNs, final long bNs)
    {
        return new SimCost(aNs, bNs, 0.10, 0.1, 10_000_000L, 40_000_000L);
    }

    /** @return {@code a + b·size}, without jitter */
    long meanNs(final int size)
    {
        return aNs + bNs * size;
    }

    /**
     * @param size   the batch size
     * @param random the instance's random source
     * @return one execution's duration without stalls
     */
    long sample(final int size, final SplittableRandom random)
    {
        final double factor = sigma > 0 ? Math.exp(sigma * gaussian(random)) : 1;
        return Math.max(1, Math.round(meanNs(size) * factor));
    }

    /**
     * One instance's stalls over a run.
     *
     * @param untilNs how long the run may last
     * @param seed    the instance's seed
     * @return start and length of each stall, interleaved ({@code [start0, length0, start1, ...]}), by start
     */
    long[] stalls(final long untilNs, final long seed)
    {
        if (stallsPerS <= 0)
        {
            return new long[0];
        }
        final SplittableRandom random = new SplittableRandom(seed);
        final long[] stalls = new long[2 * (int)(untilNs / 1e9 * stallsPerS * 3 + 8)];
        int count = 0;
        double clock = -Math.log(1.0 - random.nextDouble()) * 1e9 / stallsPerS;
        while (clock < untilNs && count < stalls.length)
        {
            stalls[count++] = Math.round(clock);
            stalls[count++] = stallMinNs + Math.round(random.nextDouble() * (stallMaxNs - stallMinNs));
            clock += -Math.log(1.0 - random.nextDouble()) * 1e9 / stallsPerS;
        }
        return java.util.Arrays.copyOf(stalls, count);
    }

    /** Box–Muller, one value per call (the random source stays a plain sequence of doubles). */
    private static double gaussian(final SplittableRandom random)
    {
        return Math.sqrt(-2 * Math.log(1.0 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
