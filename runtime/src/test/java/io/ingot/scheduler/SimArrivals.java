package io.ingot.scheduler;

import java.util.SplittableRandom;

/**
 * Open-loop arrival processes for {@link PolicySimulator}, the same three {@code ingot perf} offers
 * ({@code io.ingot.perf.Arrivals}, which the runtime's tests cannot see): evenly spaced, Poisson, and on/off bursts
 * at the same mean rate. Each is a pure function of its rate, length and seed, so every policy compared at one rate
 * sees the very same arrivals.
 */
sealed interface SimArrivals permits SimArrivals.Constant, SimArrivals.Poisson, SimArrivals.Bursty
{
    /**
     * @param rate       the mean rate, requests per second, {@code > 0}
     * @param durationNs how long requests arrive, from time 0
     * @param seed       the random seed (ignored by {@link Constant})
     * @return the arrival times, ascending
     */
    long[] times(double rate, long durationNs, long seed);

    /** @return the name the comparison's table shows */
    String name();

    /** Evenly spaced arrivals. */
    record Constant() implements SimArrivals
    {
        @Override
        public long[] times(final double rate, final long durationNs, final long seed)
        {
            final int count = (int)(rate * durationNs / 1e9);
            final long[] times = new long[count];
            for (int i = 0; i < count; i++)
            {
                times[i] = Math.round(i * 1e9 / rate);
            }
            return times;
        }

        @Override
        public String name()
        {
            return "constant";
        }
    }

    /** Exponential gaps. */
    record Poisson() implements SimArrivals
    {
        @Override
        public long[] times(final double rate, final long durationNs, final long seed)
        {
            final SplittableRandom random = new SplittableRandom(seed);
            final long[] times = new long[(int)(rate * durationNs / 1e9 * 1.2) + 16];
            int count = 0;
            double clock = exponential(random) * 1e9 / rate;
            while (clock < durationNs && count < times.length)
            {
                times[count++] = Math.round(clock);
                clock += exponential(random) * 1e9 / rate;
            }
            return java.util.Arrays.copyOf(times, count);
        }

        @Override
        public String name()
        {
            return "poisson";
        }
    }

    /**
     * On/off arrivals as {@code ingot perf --request-distribution bursty} makes them: each period of {@code periodNs}
     * starts with an on phase of {@code periodNs / ratio} with Poisson arrivals at {@code ratio} times the mean rate,
     * then nothing until the next period.
     *
     * @param ratio    peak over mean rate, {@code >= 1}
     * @param periodNs one on/off period
     */
    record Bursty(double ratio, long periodNs) implements SimArrivals
    {
        @Override
        public long[] times(final double rate, final long durationNs, final long seed)
        {
            final long[] onClock = new Poisson().times(rate * ratio, (long)(durationNs / ratio), seed);
            final double onNs = periodNs / ratio;
            for (int i = 0; i < onClock.length; i++)
            {
                final double periods = Math.floor(onClock[i] / onNs);
                onClock[i] = Math.round(periods * periodNs + (onClock[i] - periods * onNs));
            }
            return onClock;
        }

        @Override
        public String name()
        {
            return "bursty";
        }
    }

    private static double exponential(final SplittableRandom random)
    {
        return -Math.log(1.0 - random.nextDouble());
    }
}
