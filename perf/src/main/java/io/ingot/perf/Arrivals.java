package io.ingot.perf;

import java.util.SplittableRandom;

/**
 * How an open loop spaces its requests: the arrival process. Each is a description (immutable, thread-safe) that
 * {@link #at(double, long)} turns into a stream of gaps for one load level at one mean rate.
 *
 * <ul>
 *   <li>{@link Constant}: evenly spaced, {@code 1/rate} apart (perf_analyzer's {@code constant});</li>
 *   <li>{@link Poisson}: exponential gaps of mean {@code 1/rate} (perf_analyzer's {@code poisson});</li>
 *   <li>{@link Bursty}: on/off — an interrupted Poisson process with the same mean rate;</li>
 *   <li>{@link Trace}: recorded arrival times replayed, scaled to the rate.</li>
 * </ul>
 */
public sealed interface Arrivals permits Arrivals.Constant, Arrivals.Poisson, Arrivals.Bursty, Arrivals.Trace
{
    /**
     * Starts a stream of gaps.
     *
     * @param rate the mean rate, requests per second (&gt; 0)
     * @param seed seed of the random gaps (ignored by the deterministic processes)
     * @return the gaps; not thread-safe (one scheduler thread draws them)
     */
    Gaps at(double rate, long seed);

    /** @return how reports name this process: {@code constant}, {@code poisson}, {@code bursty ratio 4.0 period
     *  100.0 ms} or {@code trace FILE} */
    String describe();

    /** The time from one arrival to the next. */
    @FunctionalInterface
    interface Gaps
    {
        /** @return nanoseconds from the previous arrival (or from the start, for the first) to the next; &gt;= 0 */
        long nextNanos();
    }

    /** Evenly spaced arrivals. */
    record Constant() implements Arrivals
    {
        @Override
        public Gaps at(final double rate, final long seed)
        {
            final long gap = Math.max(1, Math.round(1e9 / rate));
            return () -> gap;
        }

        @Override
        public String describe()
        {
            return "constant";
        }
    }

    /** A Poisson process: independent exponential gaps. */
    record Poisson() implements Arrivals
    {
        @Override
        public Gaps at(final double rate, final long seed)
        {
            final SplittableRandom random = new SplittableRandom(seed);
            final double meanNs = 1e9 / rate;
            return () -> Math.round(exponential(random) * meanNs);
        }

        @Override
        public String describe()
        {
            return "poisson";
        }
    }

    /**
     * On/off arrivals with the mean rate kept: time is cut into periods of {@code periodMs}; each period starts with
     * an on phase of {@code periodMs / ratio} during which requests arrive as a Poisson process at {@code ratio}
     * times the mean rate, followed by an off phase with no arrivals. Over whole periods the mean rate is the
     * level's rate; {@code ratio} is the peak-to-mean ratio and {@code 1/ratio} the on fraction ({@code ratio} 1 is
     * the Poisson process).
     *
     * @param ratio    peak rate over mean rate, &gt;= 1
     * @param periodMs length of one on/off period, milliseconds, &gt; 0
     */
    record Bursty(double ratio, double periodMs) implements Arrivals
    {
        /**
         * @throws PerfException (usage) naming {@code --burst-ratio} or {@code --burst-period-ms} for a bad value
         */
        public Bursty
        {
            if (!(ratio >= 1) || Double.isInfinite(ratio))
            {
                throw PerfException.usage("--burst-ratio must be a number >= 1 (the on phase's rate over the mean"
                    + " rate; 1 is Poisson), got " + ratio);
            }
            if (!(periodMs > 0) || Double.isInfinite(periodMs))
            {
                throw PerfException.usage("--burst-period-ms must be a number of milliseconds > 0, got " + periodMs);
            }
        }

        @Override
        public Gaps at(final double rate, final long seed)
        {
            final SplittableRandom random = new SplittableRandom(seed);
            final double periodNs = periodMs * 1e6;
            final double onNs = periodNs / ratio;
            final double peakMeanGapNs = 1e9 / (rate * ratio);
            // Arrivals are a Poisson process on the "on clock", which runs only during on phases; an on-clock time
            // maps to wall time by inserting one off phase after every onNs of it.
            return new Gaps()
            {
                private double onClock;
                private double wall;

                @Override
                public long nextNanos()
                {
                    onClock += exponential(random) * peakMeanGapNs;
                    final double periods = Math.floor(onClock / onNs);
                    final double next = periods * periodNs + (onClock - periods * onNs);
                    final long gap = Math.round(next - wall);
                    wall += gap;
                    return Math.max(0, gap);
                }
            };
        }

        @Override
        public String describe()
        {
            return "bursty ratio " + ratio + " period " + periodMs + " ms";
        }
    }

    /**
     * Recorded arrivals replayed in a loop. The trace's own mean rate is {@code (n - 1) / (last - first)}; at a
     * level's rate the gaps are scaled by {@code ownRate / rate}, so the replay keeps the trace's shape at that mean
     * rate. After the last arrival the trace starts again one mean gap later, which keeps the mean rate across
     * repetitions.
     *
     * @param source     where the trace came from, for reports
     * @param gapsNanos  the recorded gaps, nanoseconds; gap 0 is the mean gap (from the last arrival of one
     *                   repetition to the first of the next), gap {@code i} the one before arrival {@code i}
     * @param ownRate    the trace's own mean rate, requests per second
     */
    record Trace(String source, long[] gapsNanos, double ownRate) implements Arrivals
    {
        @Override
        public Gaps at(final double rate, final long seed)
        {
            final double scale = ownRate / rate;
            return new Gaps()
            {
                private int next = 1;
                private double carry;

                @Override
                public long nextNanos()
                {
                    // Scaled gaps are rounded with their remainder carried, so no drift accumulates.
                    final double exact = gapsNanos[next] * scale + carry;
                    final long gap = Math.round(exact);
                    carry = exact - gap;
                    next = next + 1 == gapsNanos.length ? 0 : next + 1;
                    return Math.max(0, gap);
                }
            };
        }

        @Override
        public String describe()
        {
            return "trace " + source;
        }
    }

    private static double exponential(final SplittableRandom random)
    {
        return -Math.log(1.0 - random.nextDouble());
    }
}
