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
import java.util.concurrent.atomic.AtomicLong;

/**
 * The round trip of one request of a sequence through the core's sequence batcher, Direct and Oldest strategies,
 * against the dynamic batcher serving a stateless model of the same size in the same run ({@code dynamic}: the
 * baseline). Every JMH thread is one sequence (its own correlation ID, START on its first request, never ended), so
 * {@code -t N} is N live sequences each with one request in flight. The sequence models are the built-in
 * {@code simple_sequence} ({@code (INPUT + START) * READY}: the work is the batcher's, not the model's); the baseline
 * is the built-in identity, INT32 {@code [1]}, batches of up to 8, zero queue delay everywhere.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class SequenceBatcherBenchmark
{
    private static final String MODEL = "m";
    private static final String IO = " max_batch_size: 8"
        + " input [{ name: 'INPUT' data_type: TYPE_INT32 dims: [1] }]"
        + " output [{ name: 'OUTPUT' data_type: TYPE_INT32 dims: [1] }]"
        + " instance_group [{ kind: KIND_CPU count: 1 }]";
    private static final String CONTROLS = " max_sequence_idle_microseconds: 600000000 control_input ["
        + " { name: 'START' control [{ kind: CONTROL_SEQUENCE_START int32_false_true: [0, 1] }] },"
        + " { name: 'READY' control [{ kind: CONTROL_SEQUENCE_READY int32_false_true: [0, 1] }] } ]";

    /** {@code dynamic} (baseline, no sequences), {@code direct} or {@code oldest}. */
    @Param({"dynamic", "direct", "oldest"})
    public String scheduler;

    /** How Ingot's threads wait. */
    @Param("BLOCKING")
    public IdleMode idle;

    private InferenceCore core;
    private final AtomicLong nextSequence = new AtomicLong(1000);

    /**
     * @param scheduler the {@link #scheduler} parameter
     * @return the model's configuration text
     */
    static String config(final String scheduler)
    {
        return switch (scheduler)
        {
            case "dynamic" -> "name: 'm' backend: 'identity'" + IO + " dynamic_batching { }";
            case "direct" -> "name: 'm' backend: 'simple_sequence'" + IO + " sequence_batching { direct { }"
                + CONTROLS + " }";
            case "oldest" -> "name: 'm' backend: 'simple_sequence'" + IO + " sequence_batching {"
                + " oldest { max_candidate_sequences: 64 }" + CONTROLS + " }";
            default -> throw new IllegalArgumentException("scheduler " + scheduler + ": dynamic, direct or oldest");
        };
    }

    /**
     * Opens the core.
     *
     * @throws ConfigException never for the fixed configurations
     */
    @Setup(Level.Trial)
    public void start() throws ConfigException
    {
        core = InferenceCore.open(CoreOptions.builder()
            .model(ModelConfigParser.parse(config(scheduler), "benchmark model"))
            .idleMode(idle).build());
    }

    /** Closes the core. */
    @TearDown(Level.Trial)
    public void stop()
    {
        core.close();
    }

    /** One sequence: its reused request and input. */
    @State(Scope.Thread)
    public static class Sequence
    {
        private Arena arena;
        private InferenceRequest request;
        private long id;
        private boolean started;

        /**
         * @param benchmark the benchmark, for the sequence's ID
         */
        @Setup(Level.Trial)
        public void create(final SequenceBatcherBenchmark benchmark)
        {
            arena = Arena.ofShared();
            final MemorySegment input = arena.allocate(4, 64);
            input.set(ValueLayout.JAVA_INT, 0, 3);
            id = benchmark.nextSequence.getAndIncrement();
            request = new InferenceRequest(MODEL).addInput("INPUT", DataType.INT32, new long[] {1, 1}, input);
        }

        /** Frees the input. */
        @TearDown(Level.Trial)
        public void free()
        {
            arena.close();
        }
    }

    /**
     * One request of the thread's sequence (or, for the baseline, one stateless request).
     *
     * @param sequence this thread's sequence
     * @return the output, so the call is not dead code
     */
    @Benchmark
    public int request(final Sequence sequence)
    {
        final InferenceRequest request = sequence.request;
        if (!"dynamic".equals(scheduler))
        {
            request.sequence(sequence.id, !sequence.started, false);
            sequence.started = true;
        }
        try (InferenceResponse response = core.submit(request).join().throwIfError())
        {
            return response.output("OUTPUT").data().get(ValueLayout.JAVA_INT, 0);
        }
    }
}
