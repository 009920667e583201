package io.ingot.perf.pipeline;

import io.ingot.config.proto.ModelConfig;

import java.lang.foreign.Arena;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The floor of a hand-off, for one submitting thread: nothing between the submitter and one batching thread but a
 * single-producer, single-consumer ring of slots — no validation, no batch policy, no lock, no wake-up (the worker
 * spins, never parks) — and then what every pipeline does: the same {@link EngineBatch} (one copy per byte in and out,
 * the identity engine) and the same slot completion. A pipeline that hands requests from a caller's thread to a
 * batching thread cannot be faster than this on the same machine and harness; what is left between it and a
 * pipeline is that pipeline's own cost. One submitting thread only ({@link InFlightComparison}'s {@code async} way):
 * the producer's index is a plain field.
 */
final class HandOffFloorPipeline implements Pipeline
{
    private static final String NAME = Pipelines.HAND_OFF_FLOOR;
    private static final int CAPACITY = 1024;
    /** Elements of {@link #sequences}: two counters 128 bytes apart, each with a line of the array to itself. */
    private static final int PUBLISHED = 8;
    private static final int CONSUMED = 24;
    private static final VarHandle SEQUENCE = MethodHandles.arrayElementVarHandle(long[].class);

    private final long width;
    private final int maxBatch;
    private final PipelineSlot[] ring = new PipelineSlot[CAPACITY];
    /** The worker's progress and the submitter's, padded by the rest of the array (Disruptor's early manner). */
    private final long[] sequences = new long[32];
    private final Arena arena = Arena.ofShared();
    private final EngineBatch batch;
    private final Thread worker;
    private final BatchCompletions completions = new BatchCompletions(NAME);
    private volatile boolean running = true;
    /** The submitter's: the next sequence it publishes, and the last consumed sequence it read. */
    private long next;
    private long consumedSeen;

    /**
     * @param config   the identity model's configuration
     * @param width    elements per request
     * @param maxBatch the most requests per batch
     */
    HandOffFloorPipeline(final ModelConfig config, final long width, final int maxBatch)
    {
        this.width = width;
        this.maxBatch = maxBatch;
        this.batch = new EngineBatch(config, BaselineEngine.create(config, 0), width, maxBatch, arena);
        this.worker = Thread.ofPlatform().name("hand-off-floor-worker").daemon(true).start(this::work);
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public PipelineSlot newSlot(final Arena slotArena)
    {
        return PipelineSlot.rows(slotArena, width);
    }

    @Override
    public void submit(final PipelineSlot slot)
    {
        while (next - consumedSeen >= CAPACITY)
        {
            consumedSeen = (long)SEQUENCE.getAcquire(sequences, CONSUMED);
            Thread.onSpinWait();
        }
        ring[(int)next & (CAPACITY - 1)] = slot;
        SEQUENCE.setRelease(sequences, PUBLISHED, ++next);
    }

    private void work()
    {
        final PipelineSlot[] slots = new PipelineSlot[maxBatch];
        long head = 0;
        while (running)
        {
            final long available = (long)SEQUENCE.getAcquire(sequences, PUBLISHED);
            if (available == head)
            {
                Thread.onSpinWait();
                continue;
            }
            final int count = (int)Math.min(available - head, maxBatch);
            for (int i = 0; i < count; i++)
            {
                slots[i] = ring[(int)(head + i) & (CAPACITY - 1)];
            }
            head += count;
            SEQUENCE.setRelease(sequences, CONSUMED, head);
            completions.run(batch, slots, count);
        }
    }

    @Override
    public long requests()
    {
        return completions.requests();
    }

    @Override
    public long executions()
    {
        return completions.executions();
    }

    @Override
    public void close()
    {
        running = false;
        try
        {
            worker.join(5_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        // What the worker did not take is answered, so that no caller waits forever.
        for (long s = (long)SEQUENCE.getAcquire(sequences, CONSUMED); s < next; s++)
        {
            ring[(int)s & (CAPACITY - 1)].fail("hand-off floor pipeline closed");
        }
        arena.close();
    }
}
