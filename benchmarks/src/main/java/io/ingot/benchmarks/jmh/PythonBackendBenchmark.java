package io.ingot.benchmarks.jmh;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelControlMode;
import io.ingot.api.ParkingWaiter;
import io.ingot.api.ResponseStreamListener;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * What Ingot's Python backend costs per request and per response, in one core of this process, on the models of
 * {@code benchmarks/python/models}: {@code empty}, whose {@code execute} returns each request's input as its output
 * (the least a model does; with {@code -t 16}, sixteen callers, batched up to 8), and {@code stream}, a decoupled
 * model that sends {@code responses} responses per request from {@code execute} and then the final flag, so that the
 * difference between two {@code responses} levels divided by their difference is the cost of one streamed response.
 * The model's own cost is measured beside it by {@code benchmarks/python/direct_loop.py} (its {@code execute} in a
 * plain Python loop); {@code benchmarks/run-python-backend.sh} runs both, interleaved. Needs {@code /usr/bin/python3}
 * with numpy.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = {"--enable-native-access=ALL-UNNAMED", "--add-opens",
    "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx1g"})
public class PythonBackendBenchmark
{
    /** The models' repository: {@code benchmarks/python/models} (run from the project's root), or this property. */
    private static final String MODELS = System.getProperty("ingot.python.models", "benchmarks/python/models");

    /** Responses per request of the streaming model. */
    @Param({"1", "16", "64"})
    public int responses;

    private InferenceCore core;

    /** Opens a core serving the two models. */
    @Setup(Level.Trial)
    public void open()
    {
        final Path repository = Path.of(MODELS);
        if (!Files.isDirectory(repository.resolve("empty")))
        {
            throw new IllegalStateException("no benchmark models at " + repository.toAbsolutePath() + ": run from the "
                + "project's root, or set -Dingot.python.models");
        }
        core = InferenceCore.open(CoreOptions.builder().modelRepository(repository)
            .controlMode(ModelControlMode.EXPLICIT).startupModel("empty").startupModel("stream").build());
        if (!core.isModelReady("empty", -1) || !core.isModelReady("stream", -1))
        {
            throw new IllegalStateException("the benchmark's models did not load: " + core.repositoryIndex(false));
        }
    }

    /** Closes the core. */
    @TearDown(Level.Trial)
    public void close()
    {
        core.close();
    }

    /** One caller's request and its memory, reused. */
    @State(Scope.Thread)
    public static class Caller
    {
        final InferenceRequest empty = new InferenceRequest("empty");
        final InferenceRequest stream = new InferenceRequest("stream");
        final MemorySegment count = Arena.ofAuto().allocate(4, 4);
        final StreamEnd end = new StreamEnd();

        /** Fills the requests. */
        @Setup(Level.Trial)
        public void fill(final PythonBackendBenchmark benchmark)
        {
            empty.addInput("IN", DataType.FP32, new long[] {1, 16}, Arena.ofAuto().allocate(64, 64));
            count.set(ValueLayout.JAVA_INT, 0, benchmark.responses);
            stream.addInput("IN", DataType.INT32, new long[] {1}, count);
        }
    }

    /** Counts a stream's responses and wakes its caller at the final. */
    static final class StreamEnd implements ResponseStreamListener
    {
        private final ParkingWaiter waiter = new ParkingWaiter();
        private volatile boolean done;
        int received;

        @Override
        public void onResponse(final InferenceResponse response, final boolean last)
        {
            if (response != null)
            {
                received++;
                response.close();
            }
            if (last)
            {
                done = true;
                waiter.wake();
            }
        }

        int await()
        {
            waiter.announce();
            while (!done)
            {
                LockSupport.park(this);
            }
            waiter.withdraw();
            done = false;
            final int count = received;
            received = 0;
            return count;
        }
    }

    /**
     * @param caller this thread's request
     * @return the response's first element
     */
    @Benchmark
    public float empty(final Caller caller)
    {
        try (InferenceResponse response = core.submit(caller.empty).join())
        {
            return response.output(0).data().get(ValueLayout.JAVA_FLOAT, 0);
        }
    }

    /**
     * @param caller this thread's request
     * @return the responses received
     */
    @Benchmark
    public int stream(final Caller caller)
    {
        core.submit(caller.stream, caller.end);
        return caller.end.await();
    }
}
