package io.ingot.perf.pipeline;

import io.ingot.api.IdleMode;
import org.HdrHistogram.Histogram;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Runs the comparison: at each concurrency level, every pipeline serves N closed-loop callers (each sends one request,
 * waits for it, sends the next), in rounds whose order rotates, so that a noisy moment of the machine lands on all of
 * them; the floors (a park/unpark and a spin round trip between two threads) run in the same rounds at concurrency 1.
 * Each pipeline is started fresh for each level and measured after a warm-up. Not thread-safe: one run at a time.
 */
public final class PipelineComparison
{
    /** The parking floor's name in results. */
    public static final String PARK_FLOOR = "park-round-trip";
    /** The spinning floor's name in results. */
    public static final String SPIN_FLOOR = "spin-round-trip";

    private final List<String> pipelines;
    private final long width;
    private final int maxBatch;
    private final IdleMode idle;
    private final long warmupNanos;
    private final long windowNanos;
    private final int rounds;
    private final long callerAwakeNanos;

    /**
     * One pipeline at one concurrency level.
     *
     * @param pipeline     its name
     * @param concurrency  callers
     * @param requests     requests measured
     * @param seconds      time measured
     * @param latencies    every measured round trip, nanoseconds
     * @param averageBatch requests per engine execution (1 for the floors)
     */
    public record Result(String pipeline, int concurrency, long requests, double seconds, Histogram latencies,
        double averageBatch)
    {
        /** @return requests per second */
        public double throughput()
        {
            return seconds == 0 ? 0 : requests / seconds;
        }

        /**
         * @param percentile a percentile, 0-100
         * @return that latency in microseconds
         */
        public double latencyUs(final double percentile)
        {
            return latencies.getValueAtPercentile(percentile) / 1000.0;
        }
    }

    /**
     * @param pipelines        the pipelines to compare ({@link Pipelines#NAMES})
     * @param width            FP32 elements per request
     * @param maxBatch         the most requests per batch
     * @param idle             how Ingot's threads wait
     * @param warmupNanos      warm-up per pipeline and level
     * @param windowNanos      measured time per pipeline, level and round
     * @param rounds           rounds per level
     * @param callerAwakeNanos how long every caller of every pipeline stays awake (spinning, then yielding) before it
     *                         parks while it waits for its response ({@link Long#MAX_VALUE}: never parks; 0: parks at
     *                         once)
     */
    public PipelineComparison(final List<String> pipelines, final long width, final int maxBatch,
        final IdleMode idle, final long warmupNanos, final long windowNanos, final int rounds,
        final long callerAwakeNanos)
    {
        if (callerAwakeNanos < 0)
        {
            throw new IllegalArgumentException("callers' awake time must be >= 0, was " + callerAwakeNanos);
        }
        this.callerAwakeNanos = callerAwakeNanos;
        this.pipelines = List.copyOf(pipelines);
        this.width = width;
        this.maxBatch = maxBatch;
        this.idle = idle;
        this.warmupNanos = warmupNanos;
        this.windowNanos = windowNanos;
        this.rounds = rounds;
    }

    /**
     * @param concurrency the level
     * @param progress    told what is being measured
     * @return one result per pipeline (and per floor at concurrency 1), in {@code pipelines} order
     * @throws InterruptedException when interrupted
     */
    public List<Result> measure(final int concurrency, final Consumer<String> progress) throws InterruptedException
    {
        final List<String> lanes = new ArrayList<>(pipelines);
        if (concurrency == 1)
        {
            lanes.add(PARK_FLOOR);
            lanes.add(SPIN_FLOOR);
        }
        final Map<String, Histogram> latencies = new LinkedHashMap<>();
        final Map<String, long[]> counts = new LinkedHashMap<>();
        for (final String lane : lanes)
        {
            latencies.put(lane, new Histogram(3));
            counts.put(lane, new long[3]);
        }
        for (int round = 0; round < rounds; round++)
        {
            for (int i = 0; i < lanes.size(); i++)
            {
                final String lane = lanes.get((i + round) % lanes.size());
                progress.accept("concurrency " + concurrency + ", round " + (round + 1) + "/" + rounds + ": " + lane);
                final long[] count = counts.get(lane);
                if (lane.equals(PARK_FLOOR) || lane.equals(SPIN_FLOOR))
                {
                    floor(lane, latencies.get(lane), count);
                }
                else
                {
                    pipeline(lane, concurrency, latencies.get(lane), count);
                }
            }
        }
        final List<Result> results = new ArrayList<>();
        for (final String lane : lanes)
        {
            final long[] count = counts.get(lane);
            results.add(new Result(lane, concurrency, count[0], count[1] / 1e9, latencies.get(lane),
                count[2] == 0 ? 1 : (double)count[0] / count[2]));
        }
        return results;
    }

    /** One window of one pipeline: its counts are {@code [requests, nanos, executions]}. */
    private void pipeline(final String name, final int concurrency, final Histogram latencies, final long[] count)
        throws InterruptedException
    {
        try (Pipeline pipeline = Pipelines.create(name, width, maxBatch, idle); Arena arena = Arena.ofShared())
        {
            final List<PipelineSlot> slots = new ArrayList<>();
            for (int c = 0; c < concurrency; c++)
            {
                final PipelineSlot slot = pipeline.newSlot(arena);
                slot.input().fill((byte)1);
                slots.add(slot);
            }
            run(pipeline, slots, callerAwakeNanos, warmupNanos, null);
            final long requestsBefore = pipeline.requests();
            final long executionsBefore = pipeline.executions();
            final long start = System.nanoTime();
            final long measured = run(pipeline, slots, callerAwakeNanos, windowNanos, latencies);
            count[1] += System.nanoTime() - start;
            count[0] += measured;
            final long executions = pipeline.executions() - executionsBefore;
            final long executed = pipeline.requests() - requestsBefore;
            // Executions are counted by the pipeline; scale them to the requests measured by the callers.
            count[2] += executed == 0 ? 0 : Math.round((double)executions * measured / executed);
        }
    }

    /** Closed-loop callers for {@code nanos}; returns the requests they completed. */
    private static long run(final Pipeline pipeline, final List<PipelineSlot> slots, final long spin,
        final long nanos, final Histogram latencies) throws InterruptedException
    {
        final AtomicBoolean stop = new AtomicBoolean();
        final CountDownLatch done = new CountDownLatch(slots.size());
        final long[] completed = new long[slots.size()];
        final Histogram[] own = new Histogram[slots.size()];
        final List<Thread> threads = new ArrayList<>();
        final String[] failure = new String[1];
        for (int c = 0; c < slots.size(); c++)
        {
            final int index = c;
            own[c] = new Histogram(3);
            threads.add(Thread.ofPlatform().name("caller-" + c).daemon(true).start(() ->
            {
                final PipelineSlot slot = slots.get(index);
                try
                {
                    while (!stop.get())
                    {
                        final long begin = System.nanoTime();
                        slot.begin();
                        pipeline.submit(slot);
                        slot.await(spin);
                        own[index].recordValue(Math.max(1, System.nanoTime() - begin));
                        completed[index]++;
                    }
                }
                catch (final RuntimeException ex)
                {
                    failure[0] = pipeline.name() + ": " + ex.getMessage();
                }
                finally
                {
                    done.countDown();
                }
            }));
        }
        Thread.sleep(nanos / 1_000_000, (int)(nanos % 1_000_000));
        stop.set(true);
        done.await();
        if (failure[0] != null)
        {
            throw new IllegalStateException(failure[0]);
        }
        long total = 0;
        for (int c = 0; c < slots.size(); c++)
        {
            total += completed[c];
            if (latencies != null)
            {
                latencies.add(own[c]);
            }
        }
        return total;
    }

    /** One window of a floor: round trips for the window's length. */
    private void floor(final String name, final Histogram latencies, final long[] count)
    {
        try (RoundTrip trip = name.equals(PARK_FLOOR) ? RoundTrip.parking() : RoundTrip.spinning())
        {
            final long warmEnd = System.nanoTime() + warmupNanos;
            while (System.nanoTime() < warmEnd)
            {
                trip.roundTrip();
            }
            final long start = System.nanoTime();
            final long end = start + windowNanos;
            long trips = 0;
            long now = start;
            while (now < end)
            {
                trip.roundTrip();
                final long after = System.nanoTime();
                latencies.recordValue(Math.max(1, after - now));
                now = after;
                trips++;
            }
            count[0] += trips;
            count[1] += now - start;
        }
    }
}
