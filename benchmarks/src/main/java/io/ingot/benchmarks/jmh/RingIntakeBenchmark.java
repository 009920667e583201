package io.ingot.benchmarks.jmh;

import io.ingot.api.IdleMode;
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

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Issue #6 (a): requests per second that P producer threads (JMH's {@code -t}) get into a batching pipeline.
 *
 * <ul>
 *   <li>{@code ingotBatcher}: Ingot's request ring and real dynamic batcher, batches handed to a no-op instance
 *       thread ({@link BatcherIntake});</li>
 *   <li>{@code ingotCore}: the same through the public core API with the identity model ({@link CoreIntake});</li>
 *   <li>{@code linkedBlockingQueue}, {@code arrayBlockingQueue}: the baselines, a blocking queue drained by a
 *       {@code poll} + {@code drainTo} worker as DJL Serving and TorchServe do ({@link BlockingQueueIntake}).</li>
 * </ul>
 * Each producer keeps at most {@link #window} requests in flight and reuses them; one operation is one request.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = {"--enable-native-access=ALL-UNNAMED", "--add-opens",
    "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx1g"})
public class RingIntakeBenchmark
{
    /** Ring and queue capacity: the core's default ring size. */
    private static final int CAPACITY = 1024;

    /** The pipeline under test. */
    @Param({"ingotBatcher", "ingotCore", "linkedBlockingQueue", "arrayBlockingQueue"})
    public String intake;

    /** Maximum batch size of every pipeline. */
    @Param("64")
    public int maxBatch;

    /** Requests each producer keeps in flight. */
    @Param("64")
    public int window;

    /** How Ingot's threads wait for work. */
    @Param("BLOCKING")
    public IdleMode idle;

    private IntakePipeline pipeline;

    /** Starts the pipeline. */
    @Setup(Level.Trial)
    public void start()
    {
        pipeline = switch (intake)
        {
            case "ingotBatcher" -> new BatcherIntake(maxBatch, CAPACITY, idle);
            case "ingotCore" -> new CoreIntake(maxBatch, CAPACITY, idle);
            case "linkedBlockingQueue" -> new BlockingQueueIntake(new LinkedBlockingQueue<>(CAPACITY), maxBatch);
            case "arrayBlockingQueue" -> new BlockingQueueIntake(new ArrayBlockingQueue<>(CAPACITY), maxBatch);
            default -> throw new IllegalArgumentException("unknown intake '" + intake + "'; expected ingotBatcher, "
                + "ingotCore, linkedBlockingQueue or arrayBlockingQueue");
        };
    }

    /** Stops the pipeline. */
    @TearDown(Level.Trial)
    public void stop()
    {
        pipeline.close();
    }

    /** One producer thread's window of reusable requests. */
    @State(Scope.Thread)
    public static class Producer
    {
        private IntakeSlot[] slots;
        private int next;

        /**
         * @param benchmark the benchmark whose pipeline makes the slots
         */
        @Setup(Level.Trial)
        public void create(final RingIntakeBenchmark benchmark)
        {
            slots = new IntakeSlot[benchmark.window];
            for (int i = 0; i < slots.length; i++)
            {
                slots[i] = benchmark.pipeline.newSlot();
            }
        }

        /** Waits for every request of this producer, so that none is in flight when the pipeline stops. */
        @TearDown(Level.Trial)
        public void drain()
        {
            for (final IntakeSlot slot : slots)
            {
                slot.awaitFree();
            }
        }

        IntakeSlot nextFree()
        {
            final IntakeSlot slot = slots[next];
            next = next + 1 == slots.length ? 0 : next + 1;
            slot.awaitFree();
            return slot;
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
        pipeline.submit(producer.nextFree());
    }
}
