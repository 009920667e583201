package io.ingot.benchmarks.jmh;

import io.ingot.api.CoreOptions;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelStatistics;
import io.ingot.api.ResponseFuture;
import io.ingot.perf.pipeline.Pipelines;
import io.ingot.perf.support.BenchModels;
import io.ingot.perf.support.ReusingResponseAllocator;
import io.ingot.tensor.DataType;
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
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

/**
 * Ingot's in-process API as an application would use it, for allocation per request ({@code -prof gc}): each caller
 * reuses one request and one {@link ResponseFuture} ({@link #future}: {@code submit(request, future)}, then
 * {@code await()} and {@code close()}). Output memory is the core's default pool ({@code allocator=pool}) or the
 * application's ({@code allocator=caller}, a {@link ReusingResponseAllocator}). With {@code -t 1} every batch holds
 * one request; with {@code -t 16} batches fill up to {@code maxBatch}. The listener path is
 * {@link OverheadBenchmark}'s {@code pipeline=ingot}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class IngotPathsBenchmark
{
    /** Output memory: the core's pool, or the caller's allocator. */
    @Param({"pool", "caller"})
    public String allocator;

    /** How Ingot's threads and the callers wait. */
    @Param("BLOCKING")
    public IdleMode idle;

    /** FP32 elements per request. */
    @Param("1")
    public int elements;

    /** The identity model's {@code max_batch_size}. */
    @Param("8")
    public int maxBatch;

    private InferenceCore core;
    private ReusingResponseAllocator outputs;

    /** Opens the core. */
    @Setup(Level.Trial)
    public void open()
    {
        core = InferenceCore.open(CoreOptions.builder().model(BenchModels.identity(maxBatch, 1)).idleMode(idle)
            .build());
        outputs = new ReusingResponseAllocator(4L * elements, 1024);
    }

    /** Says how large the batches were (requests per execution, from the core's statistics), then closes it. */
    @TearDown(Level.Trial)
    public void close()
    {
        for (final ModelStatistics statistics : core.modelStatistics("", InferenceRequest.DEFAULT_VERSION))
        {
            System.out.printf("%s: %d requests in %d executions, %.2f per execution%n", statistics.name(),
                statistics.inferenceCount(), statistics.executionCount(), statistics.executionCount() == 0 ? 0.0
                    : (double)statistics.inferenceCount() / statistics.executionCount());
        }
        core.close();
        outputs.close();
    }

    /** One caller's request and future. */
    @State(Scope.Thread)
    public static class Caller
    {
        private Arena arena;
        private InferenceRequest request;
        private ResponseFuture future;

        /**
         * @param benchmark the benchmark (its allocator choice)
         */
        @Setup(Level.Trial)
        public void create(final IngotPathsBenchmark benchmark)
        {
            arena = Arena.ofShared();
            final MemorySegment input = arena.allocate(4L * benchmark.elements, 64);
            request = new InferenceRequest("identity")
                .addInput("INPUT0", DataType.FP32, new long[] {1, benchmark.elements}, input);
            if (benchmark.allocator.equals("caller"))
            {
                request.responseAllocator(benchmark.outputs);
            }
            future = new ResponseFuture(Pipelines.callerSpinNanos(benchmark.idle));
        }

        /** Frees the input. */
        @TearDown(Level.Trial)
        public void free()
        {
            arena.close();
        }
    }

    /**
     * One request, future path.
     *
     * @param caller this thread's request and future
     * @return the output's first byte, so the call is not dead code
     */
    @Benchmark
    public byte future(final Caller caller)
    {
        final ResponseFuture future = caller.future;
        future.reset();
        core.submit(caller.request, future);
        try (InferenceResponse response = future.await())
        {
            return response.output(0).data().get(ValueLayout.JAVA_BYTE, 0);
        }
    }
}
