package io.ingot.benchmarks.jmh;

import io.ingot.api.CoreOptions;
import io.ingot.tensor.DataType;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;
import io.ingot.backend.builtin.IdentityBackendFactory;
import io.ingot.perf.support.BenchModels;
import io.ingot.perf.support.Completion;
import io.ingot.perf.support.ReusingResponseAllocator;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.device.PinnedAllocators;
import io.ingot.testing.FakeBatch;
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
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Issue #6 (c) and (d): the identity model through the whole core — validation, ring, batcher, instance thread,
 * response, listener — against the identity backend's engine called directly on the caller's thread. Batch 1,
 * payloads of 1 element and 16 MiB (the cases of Triton's {@code L0_perf_nomodel}); concurrency is JMH's
 * {@code -t} (1 and 16). Sample-time mode gives p50/p99 per call.
 *
 * <p>Steady state allocates nothing on the caller's side: each thread reuses one request, one listener
 * ({@link Completion}) and a {@link ReusingResponseAllocator}; run with {@code -prof gc} for bytes per request.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = {"--enable-native-access=ALL-UNNAMED", "--add-opens",
    "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx1g"})
public class OverheadBenchmark
{
    /** FP32 elements per request: 1 (4 bytes) or 4 Mi (16 MiB). */
    @Param({"1", "4194304"})
    public int elements;

    /** How Ingot's threads wait for work. */
    @Param("BLOCKING")
    public IdleMode idle;

    /** The identity model's {@code max_batch_size}, as in {@code L0_perf_nomodel}. */
    @Param("8")
    public int maxBatch;

    /** The identity model's instances. */
    @Param("1")
    public int instances;

    private ModelConfig config;
    private InferenceCore core;
    private Backend direct;
    private ModelContext directContext;
    private ReusingResponseAllocator outputs;

    /** Opens the core and loads the identity backend for direct calls. */
    @Setup(Level.Trial)
    public void open() throws Exception
    {
        config = BenchModels.identity(maxBatch, instances);
        outputs = new ReusingResponseAllocator(4L * elements, 256);
        core = InferenceCore.open(CoreOptions.builder().model(config).idleMode(idle).build());
        if (!core.isModelReady("identity", InferenceRequest.DEFAULT_VERSION))
        {
            throw new IllegalStateException("identity model did not load: " + core.repositoryIndex(false));
        }
        directContext = new ModelContext("identity", 1, config, null, null, PinnedAllocators.automatic());
        direct = new IdentityBackendFactory().load(directContext);
    }

    /** Closes the core, the direct backend and the output memory. */
    @TearDown(Level.Trial)
    public void close() throws Exception
    {
        core.close();
        direct.close();
        outputs.close();
    }

    /** One caller thread: its request, listener, input, and its own engine for direct calls. */
    @State(Scope.Thread)
    public static class Caller
    {
        private Arena arena;
        private InferenceRequest request;
        private final Completion completion = new Completion();
        private Engine engine;
        private FakeBatch batch;
        private MemorySegment output;

        /**
         * @param benchmark the benchmark (core, backend, allocator)
         * @throws Exception when the engine cannot be created
         */
        @Setup(Level.Trial)
        public void create(final OverheadBenchmark benchmark) throws Exception
        {
            arena = Arena.ofShared();
            final long bytes = 4L * benchmark.elements;
            final MemorySegment input = arena.allocate(bytes, 64);
            input.fill((byte)1);
            final long[] shape = {1, benchmark.elements};
            request = new InferenceRequest("identity").addInput("INPUT0", DataType.FP32, shape, input)
                .responseAllocator(benchmark.outputs);
            engine = benchmark.direct.createEngine(new InstanceContext(benchmark.directContext,
                "direct_" + Thread.currentThread().getName(), 0, ModelInstanceGroup.Kind.KIND_CPU, -1, List.of()));
            output = arena.allocate(bytes, 64);
            batch = new FakeBatch(benchmark.config, 1, arena).input("INPUT0", DataType.FP32, shape, input)
                .outputInto("OUTPUT0", output);
        }

        /** Frees this caller's memory. */
        @TearDown(Level.Trial)
        public void free() throws Exception
        {
            engine.close();
            arena.close();
        }
    }

    /**
     * One request through the whole core, waited for.
     *
     * @param caller this thread's request and listener
     */
    @Benchmark
    public void core(final Caller caller)
    {
        caller.completion.reset();
        core.submit(caller.request, caller.completion);
        caller.completion.await();
    }

    /**
     * The same request's engine call on the caller's thread.
     *
     * @param caller this thread's engine and batch
     * @return the output, so the copy is not dead code
     * @throws Exception when the engine fails
     */
    @Benchmark
    public MemorySegment direct(final Caller caller) throws Exception
    {
        caller.engine.execute(caller.batch);
        return caller.output;
    }
}
