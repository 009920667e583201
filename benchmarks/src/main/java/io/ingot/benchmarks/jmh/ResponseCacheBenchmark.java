package io.ingot.benchmarks.jmh;

import io.ingot.api.CoreOptions;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.config.ConfigException;
import io.ingot.config.ModelConfigParser;
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
 * The round trip of one request to a model behind Triton's response cache ({@code response_cache { enable: true }},
 * a local cache of 64 MiB): every request a hit (the same input bytes each time), every request a miss (the first
 * element changes on every call, so each request is looked up, executed and inserted, evicting the oldest), against
 * the same model without the cache in the same run ({@code none}: the baseline). The model is the built-in identity,
 * FP32 {@code [elements]}, batches of up to 8: an execution costs little, so the table shows what the cache's
 * hashing, lookup and copy cost or save compared with the core's own path.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class ResponseCacheBenchmark
{
    /** {@code none} (baseline: no cache), {@code hit} or {@code miss}. */
    @Param({"none", "hit", "miss"})
    public String cache;

    /** FP32 elements per request. */
    @Param({"16", "4096"})
    public int elements;

    private InferenceCore core;

    /**
     * Opens the core.
     *
     * @throws ConfigException never for the fixed configuration
     */
    @Setup(Level.Trial)
    public void start() throws ConfigException
    {
        final String config = "name: 'cached' backend: 'identity' max_batch_size: 8"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [-1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [-1] }]"
            + " dynamic_batching { } instance_group [{ kind: KIND_CPU count: 1 }]"
            + ("none".equals(cache) ? "" : " response_cache { enable: true }");
        core = InferenceCore.open(CoreOptions.builder().responseCache(64L << 20)
            .model(ModelConfigParser.parse(config, "benchmark model")).idleMode(IdleMode.BLOCKING).build());
    }

    /** Closes the core. */
    @TearDown(Level.Trial)
    public void stop()
    {
        core.close();
    }

    /** One caller: its reused request and input. */
    @State(Scope.Thread)
    public static class Caller
    {
        private Arena arena;
        private MemorySegment input;
        private InferenceRequest request;
        private int counter;

        /**
         * @param benchmark the benchmark, for the input size
         */
        @Setup(Level.Trial)
        public void create(final ResponseCacheBenchmark benchmark)
        {
            arena = Arena.ofShared();
            input = arena.allocate((long)benchmark.elements * Float.BYTES, 64);
            input.fill((byte)1);
            // Element 1 tells the callers apart, so that two threads' "miss" inputs never meet in the cache.
            input.set(ValueLayout.JAVA_INT, Integer.BYTES, System.identityHashCode(this));
            request = new InferenceRequest("cached").addInput("INPUT0", DataType.FP32,
                new long[] {1, benchmark.elements}, input);
        }

        /** Frees the input. */
        @TearDown(Level.Trial)
        public void free()
        {
            arena.close();
        }
    }

    /**
     * One request.
     *
     * @param caller this thread's request
     * @return an output element, so the call is not dead code
     */
    @Benchmark
    public float request(final Caller caller)
    {
        if ("miss".equals(cache))
        {
            // New bytes every call: never seen before, so never in the cache.
            caller.input.set(ValueLayout.JAVA_INT, 0, ++caller.counter);
        }
        try (InferenceResponse response = core.submit(caller.request).join().throwIfError())
        {
            return response.output("OUTPUT0").data().get(ValueLayout.JAVA_FLOAT, 0);
        }
    }
}
