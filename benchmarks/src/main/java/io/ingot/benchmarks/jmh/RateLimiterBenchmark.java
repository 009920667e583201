package io.ingot.benchmarks.jmh;

import io.ingot.api.CoreOptions;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.RateLimitMode;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelRateLimiter;
import io.ingot.perf.support.BenchModels;
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
import java.util.concurrent.TimeUnit;

/**
 * What the rate limiter adds to one request's round trip through a core (the identity model, one FP32 element, one
 * instance, one caller, SPINNING threads so that wake-ups do not drown the difference): {@code off} (Triton's
 * default: the dispatch path only tests a null claim) against {@code execution_count} with an instance that names no
 * resource (a staging and a release under the limiter's lock per batch) and with one that holds one unit of a
 * resource (the same, plus the pool's counters). Uncontended: the cost of the bookkeeping, not of waiting.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class RateLimiterBenchmark
{
    /** {@code off}, {@code on-no-resources} or {@code on-one-resource}. */
    @Param({"off", "on-no-resources", "on-one-resource"})
    public String limiter;

    private InferenceCore core;
    private Arena arena;
    private InferenceRequest request;

    /** Opens the core. */
    @Setup(Level.Trial)
    public void start()
    {
        ModelConfig config = BenchModels.identity(8, 1);
        if (limiter.equals("on-one-resource"))
        {
            config = config.toBuilder().setInstanceGroup(0, config.getInstanceGroup(0).toBuilder()
                .setRateLimiter(ModelRateLimiter.newBuilder().setPriority(1).addResources(
                    ModelRateLimiter.Resource.newBuilder().setName("R").setCount(1)))).build();
        }
        core = InferenceCore.open(CoreOptions.builder().model(config).idleMode(IdleMode.SPINNING)
            .rateLimit(limiter.equals("off") ? RateLimitMode.OFF : RateLimitMode.EXECUTION_COUNT).build());
        arena = Arena.ofShared();
        final MemorySegment input = arena.allocate(4, 4);
        request = new InferenceRequest(config.getName()).addInput("INPUT0", DataType.FP32, new long[] {1, 1}, input);
    }

    /** Closes the core. */
    @TearDown(Level.Trial)
    public void stop()
    {
        core.close();
        arena.close();
    }

    /**
     * One request, answered.
     *
     * @return whether it succeeded, so the call is not dead code
     * @throws Exception when it fails to complete
     */
    @Benchmark
    public boolean roundTrip() throws Exception
    {
        try (InferenceResponse response = core.submit(request).get())
        {
            return response.isOk();
        }
    }
}
