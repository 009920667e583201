package io.ingot.benchmarks.jmh;

import io.ingot.perf.pipeline.RoundTrip;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The floors of the overhead comparison: what a request pays at least when its engine runs on another thread — a
 * token to that thread and back, with both sides parking while they wait ({@link #parkRoundTrip}, two blocking
 * hand-offs) or both spinning ({@link #spinRoundTrip}). Each runs with only its own echo thread alive, so a spinning
 * echo never steals a core from the parking measurement. Sample-time mode, beside {@link OverheadBenchmark}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = {"-Xmx256m"})
public class FloorBenchmark
{
    /** The parking round trip's echo thread. */
    @State(Scope.Benchmark)
    public static class Parking
    {
        private RoundTrip trip;

        /** Starts the echo thread. */
        @Setup(Level.Trial)
        public void start()
        {
            trip = RoundTrip.parking();
        }

        /** Stops it. */
        @TearDown(Level.Trial)
        public void stop()
        {
            trip.close();
        }
    }

    /** The spinning round trip's echo thread. */
    @State(Scope.Benchmark)
    public static class Spinning
    {
        private RoundTrip trip;

        /** Starts the echo thread. */
        @Setup(Level.Trial)
        public void start()
        {
            trip = RoundTrip.spinning();
        }

        /** Stops it. */
        @TearDown(Level.Trial)
        public void stop()
        {
            trip.close();
        }
    }

    /**
     * The blocking floor.
     *
     * @param parking the echo thread
     */
    @Benchmark
    public void parkRoundTrip(final Parking parking)
    {
        parking.trip.roundTrip();
    }

    /**
     * The spinning floor.
     *
     * @param spinning the echo thread
     */
    @Benchmark
    public void spinRoundTrip(final Spinning spinning)
    {
        spinning.trip.roundTrip();
    }
}
