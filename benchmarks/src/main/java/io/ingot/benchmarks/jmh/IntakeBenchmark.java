package io.ingot.benchmarks.jmh;

import io.ingot.api.IdleMode;
import io.ingot.benchmarks.ring.DisruptorRequestRing;
import io.ingot.perf.pipeline.Pipeline;
import io.ingot.perf.pipeline.PipelineSlot;
import io.ingot.perf.pipeline.Pipelines;
import io.ingot.ring.RequestRing;
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
import java.util.concurrent.TimeUnit;

/**
 * Intake: requests per second that P producer threads (JMH's {@code -t}) get through a pipeline, each keeping up to
 * {@link #window} requests in flight and reusing them; one operation is one request. The pipelines are those of the
 * comparison (the identity model, one element, batches of up to {@link #maxBatch}): Ingot's core, the DJL-style
 * batcher ({@code LinkedBlockingQueue}, {@code poll} + {@code drainTo}), the Triton-style batcher (mutex and condition
 * variables, a batcher thread handing batches to an instance thread). With {@code scope=batcher} each is its batcher
 * alone ({@link Pipelines#createBatcherOnly}): nothing executes, a formed batch's requests complete at once, so what is
 * measured is accepting requests and forming batches — for Ingot its model scheduler (intake ring, batching role,
 * Triton's dynamic batch policy), without the core's validation, assembly and responses.
 *
 * <p>Ingot's pipelines run on the core's intake ring, the ring module's fetch-and-add {@link RequestRing}, unless
 * {@code benchmarks/target/disruptor-ring} comes first on the class path ({@code benchmarks/intake-rounds.sh}'s
 * {@code ingot-disruptor} pipelines): then the same core runs over the LMAX Disruptor's ring
 * ({@link DisruptorRequestRing}). The log names the ring that ran.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class IntakeBenchmark
{
    /** The pipeline under test. */
    @Param({"ingot", "djl-style", "triton-style"})
    public String pipeline;

    /** {@code pipeline}: the whole path, engine and responses included; {@code batcher}: the batcher alone. */
    @Param({"pipeline", "batcher"})
    public String scope;

    /** The most requests per batch. */
    @Param("64")
    public int maxBatch;

    /** Requests each producer keeps in flight. */
    @Param("64")
    public int window;

    /** How Ingot's threads wait for work. */
    @Param("BLOCKING")
    public IdleMode idle;

    private Pipeline served;

    /** Starts the pipeline. */
    @Setup(Level.Trial)
    public void start()
    {
        served = switch (scope)
        {
            case "batcher" -> Pipelines.createBatcherOnly(pipeline, maxBatch, idle);
            case "pipeline" -> Pipelines.create(pipeline, 1, maxBatch, idle);
            default -> throw new IllegalArgumentException("unknown scope '" + scope
                + "'; expected pipeline or batcher");
        };
    }

    /**
     * Stops it, and says how large its batches were (requests per execution), which explains its rate, and which
     * intake ring the core ran on.
     */
    @TearDown(Level.Trial)
    public void stop()
    {
        served.close();
        System.out.println("intake ring: " + DisruptorRequestRing.describe(RequestRing.class));
        final long executions = served.executions();
        System.out.printf("%s (%s): %d requests in %d executions, %.1f per execution%n", pipeline, scope,
            served.requests(), executions, executions == 0 ? 0.0 : (double)served.requests() / executions);
    }

    /** One producer thread's window of reusable requests. */
    @State(Scope.Thread)
    public static class Producer
    {
        private Arena arena;
        private PipelineSlot[] slots;
        private int next;

        /**
         * @param benchmark the benchmark whose pipeline makes the slots
         */
        @Setup(Level.Trial)
        public void create(final IntakeBenchmark benchmark)
        {
            arena = Arena.ofShared();
            slots = new PipelineSlot[benchmark.window];
            for (int i = 0; i < slots.length; i++)
            {
                slots[i] = benchmark.served.newSlot(arena);
            }
        }

        /** Waits for every request of this producer, so that none is in flight when the pipeline stops. */
        @TearDown(Level.Trial)
        public void drain()
        {
            for (final PipelineSlot slot : slots)
            {
                awaitFree(slot);
            }
            arena.close();
        }

        PipelineSlot nextFree()
        {
            final PipelineSlot slot = slots[next];
            next = next + 1 == slots.length ? 0 : next + 1;
            awaitFree(slot);
            return slot;
        }

        private static void awaitFree(final PipelineSlot slot)
        {
            int looks = 0;
            while (!slot.isDone())
            {
                SpinThenYield.pause(++looks);
            }
        }
    }

    /**
     * Submits one request (waiting first if this producer's window is full).
     *
     * @param producer this thread's requests
     */
    @Benchmark
    public void publish(final Producer producer)
    {
        final PipelineSlot slot = producer.nextFree();
        slot.begin();
        served.submit(slot);
    }
}
