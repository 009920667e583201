package io.ingot.benchmarks.jmh;

import io.ingot.benchmarks.ring.DisruptorRequestRing;
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

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The intake ring alone, no batching: P producer threads (JMH's {@code -t}) each keep up to {@link #window} reusable
 * items in flight — claim a sequence, publish the item — and one consumer thread drains the ring and completes each
 * item (a volatile store its producer reads before it reuses the item); one operation is one item published. The
 * intake benchmark's shape ({@link IntakeBenchmark}: producers with a window, one consumer) without the scheduler, the
 * policy or an engine. {@link #ring}: {@code fetch-and-add}, the ring module's {@link RequestRing} (the ring the core
 * runs); {@code disruptor} and {@code disruptor-next}, the LMAX Disruptor's ring buffer claimed with
 * {@code tryNext()} (a compare-and-set loop, as Ingot used it) and with {@code next()} (a fetch-and-add)
 * ({@link DisruptorRequestRing}). The producers and the consumer wait alike for every ring ({@link SpinThenYield}:
 * the consumer spins through 64 empty drains, then yields between drains). {@code docs/benchmarks/ring-choice.md}
 * reports it; {@code benchmarks/ring-choice.sh} runs it in rounds.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class RingBenchmark
{
    /** The ring under test. */
    @Param({"fetch-and-add", "disruptor", "disruptor-next"})
    public String ring;

    /** Ring slots, a power of two (the batcher-only pipeline's ring size). */
    @Param("1024")
    public int size;

    /** Items each producer keeps in flight. */
    @Param("64")
    public int window;

    // Exactly one of the two is set; the producers' and the consumer's test of it is a branch that never changes.
    private RequestRing<Item> fetchAndAdd;
    private DisruptorRequestRing<Item> disruptor;
    private Thread consumer;
    private volatile boolean running;
    private volatile long consumed;
    // Producers whose items may still be in flight: JMH may tear this state down before another thread's producer
    // has had its last items back, so the consumer runs until every producer has.
    private final AtomicInteger producers = new AtomicInteger();

    /** One reusable item; its producer reuses it once the consumer has completed it. */
    static final class Item
    {
        volatile boolean done = true;
    }

    /** Creates the ring and starts its consumer. */
    @Setup(Level.Trial)
    public void start()
    {
        switch (ring)
        {
            case "fetch-and-add" -> fetchAndAdd = new RequestRing<>(size);
            case "disruptor" -> disruptor = new DisruptorRequestRing<>(size, DisruptorRequestRing.Claim.TRY_NEXT);
            case "disruptor-next" -> disruptor = new DisruptorRequestRing<>(size, DisruptorRequestRing.Claim.NEXT);
            default -> throw new IllegalArgumentException("unknown ring '" + ring
                + "'; expected fetch-and-add, disruptor or disruptor-next");
        }
        running = true;
        consumer = new Thread(this::consume, "ring-consumer");
        consumer.setDaemon(true);
        consumer.start();
    }

    /**
     * Stops the consumer once every producer's items are back, and says how many it completed.
     *
     * @throws InterruptedException if interrupted while joining the consumer
     */
    @TearDown(Level.Trial)
    public void stop() throws InterruptedException
    {
        running = false;
        consumer.join();
        System.out.printf("%s ring: %d items consumed%n", ring, consumed);
    }

    private void consume()
    {
        final Consumer<Item> complete = item -> item.done = true;
        long count = 0;
        int idle = 0;
        while (running || producers.get() > 0)
        {
            final int drained = fetchAndAdd != null ? fetchAndAdd.drain(complete) : disruptor.drain(complete);
            if (drained > 0)
            {
                count += drained;
                idle = 0;
            }
            else
            {
                SpinThenYield.pause(++idle);
            }
        }
        consumed = count;
    }

    /** One producer thread's window of reusable items. */
    @State(Scope.Thread)
    public static class Producer
    {
        private Item[] items;
        private int next;
        private RingBenchmark benchmark;

        /**
         * @param benchmark the benchmark whose window size applies
         */
        @Setup(Level.Trial)
        public void create(final RingBenchmark benchmark)
        {
            this.benchmark = benchmark;
            benchmark.producers.incrementAndGet();
            items = new Item[benchmark.window];
            for (int i = 0; i < items.length; i++)
            {
                items[i] = new Item();
            }
        }

        /** Waits until the consumer has completed every item of this producer. */
        @TearDown(Level.Trial)
        public void drain()
        {
            for (final Item item : items)
            {
                awaitDone(item);
            }
            benchmark.producers.decrementAndGet();
        }

        Item nextFree()
        {
            final Item item = items[next];
            next = next + 1 == items.length ? 0 : next + 1;
            awaitDone(item);
            return item;
        }

        private static void awaitDone(final Item item)
        {
            int looks = 0;
            while (!item.done)
            {
                SpinThenYield.pause(++looks);
            }
        }
    }

    /**
     * Claims and publishes one item (waiting first if this producer's window is full).
     *
     * @param producer this thread's items
     */
    @Benchmark
    public void publish(final Producer producer)
    {
        final Item item = producer.nextFree();
        item.done = false;
        if (fetchAndAdd != null)
        {
            final long sequence = fetchAndAdd.claim();
            while (!fetchAndAdd.isWritable(sequence))
            {
                Thread.onSpinWait();
            }
            fetchAndAdd.publish(sequence, item);
        }
        else
        {
            disruptor.publish(disruptor.claim(), item);
        }
    }
}
