package io.ingot.benchmarks.jmh;

import io.ingot.api.IdleMode;
import io.ingot.perf.pipeline.Pipeline;
import io.ingot.perf.pipeline.PipelineSlot;
import io.ingot.perf.pipeline.Pipelines;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * The round trip of one request through each pipeline of the comparison (the identity model, one FP32 element), in
 * sample-time mode for p50/p99: Ingot's core, the DJL-style and Triton-style batchers, and the engine called
 * directly; the floors a hand-off cannot beat are {@link FloorBenchmark}'s, Ingot's future path is
 * {@link IngotPathsBenchmark}'s. Overhead is a pipeline's time minus the direct call's. With {@code -t N} each thread
 * is a caller (concurrency N); with {@code -prof gc}, bytes per request.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class OverheadBenchmark
{
    /** The pipeline under test (see {@link Pipelines#NAMES}). */
    @Param({"ingot", "djl-style", "triton-style", "direct"})
    public String pipeline;

    /** How Ingot's threads and every caller wait: BLOCKING (spin briefly, then park) or SPINNING. */
    @Param({"BLOCKING", "SPINNING"})
    public IdleMode idle;

    /** FP32 elements per request. */
    @Param("1")
    public int elements;

    /** The identity model's {@code max_batch_size}, as in Triton's {@code L0_perf_nomodel}. */
    @Param("8")
    public int maxBatch;

    private Pipeline served;
    private long spinNanos;

    /** Starts the pipeline and the floors' echo threads. */
    @Setup(Level.Trial)
    public void start()
    {
        served = Pipelines.create(pipeline, elements, maxBatch, idle);
        spinNanos = Pipelines.callerSpinNanos(idle);
    }

    /** Stops everything. */
    @TearDown(Level.Trial)
    public void stop()
    {
        served.close();
    }

    /** One caller: its reused request. */
    @State(Scope.Thread)
    public static class Caller
    {
        private Arena arena;
        private PipelineSlot slot;

        /**
         * @param benchmark the benchmark whose pipeline makes the slot
         */
        @Setup(Level.Trial)
        public void create(final OverheadBenchmark benchmark)
        {
            arena = Arena.ofShared();
            slot = benchmark.served.newSlot(arena);
            slot.input().fill((byte)1);
        }

        /** Frees the caller's memory. */
        @TearDown(Level.Trial)
        public void free()
        {
            arena.close();
        }
    }

    /**
     * One request through the pipeline, listener path.
     *
     * @param caller this thread's request
     * @return the output row, so the call is not dead code
     */
    @Benchmark
    public MemorySegment call(final Caller caller)
    {
        final PipelineSlot slot = caller.slot;
        slot.begin();
        served.submit(slot);
        slot.await(spinNanos);
        return slot.output();
    }



}
