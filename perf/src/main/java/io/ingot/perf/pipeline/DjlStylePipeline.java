package io.ingot.perf.pipeline;

import io.ingot.config.proto.ModelConfig;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The batcher of DJL Serving (and TorchServe): callers {@code offer} into a {@link LinkedBlockingQueue}; one worker
 * {@code poll}s the first request, {@code drainTo}s what else is queued up to the maximum, then — while the batch is
 * not full and the delay is not over — {@code poll}s with the remaining delay, and runs the batch on its own thread.
 * Two thread boundaries per request (caller → worker → caller), like Ingot's; no priorities, no queue policies.
 */
public final class DjlStylePipeline implements Pipeline
{
    private static final String NAME = "djl-style";

    private final ModelConfig config;
    private final long width;
    private final int maxBatch;
    private final long maxDelayNs;
    private final LinkedBlockingQueue<PipelineSlot> queue = new LinkedBlockingQueue<>();
    private final Arena arena = Arena.ofShared();
    /** The engine and its staging, or {@code null} for the batcher alone. */
    private final EngineBatch batch;
    private final Thread worker;
    private final BatchCompletions completions = new BatchCompletions(NAME);
    private volatile boolean running = true;

    /**
     * @param config     the identity model's configuration
     * @param width      elements per request
     * @param maxBatch   the most requests per batch
     * @param maxDelayNs how long a batch may wait to grow (0: take what is queued)
     */
    public DjlStylePipeline(final ModelConfig config, final long width, final int maxBatch, final long maxDelayNs)
    {
        this(config, width, maxBatch, maxDelayNs, true);
    }

    /**
     * @param config     the identity model's configuration
     * @param width      elements per request
     * @param maxBatch   the most requests per batch
     * @param maxDelayNs how long a batch may wait to grow (0: take what is queued)
     * @param runEngine  false for the batcher alone: the worker completes a batch's requests without running it
     */
    DjlStylePipeline(final ModelConfig config, final long width, final int maxBatch, final long maxDelayNs,
        final boolean runEngine)
    {
        this.config = config;
        this.width = width;
        this.maxBatch = maxBatch;
        this.maxDelayNs = maxDelayNs;
        this.batch = runEngine ? new EngineBatch(config, BaselineEngine.create(config, 0), width, maxBatch, arena)
            : null;
        this.worker = Thread.ofPlatform().name("djl-style-worker").daemon(true).start(this::work);
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
        queue.offer(slot);
    }

    private void work()
    {
        final ArrayList<PipelineSlot> taken = new ArrayList<>(maxBatch);
        final PipelineSlot[] slots = new PipelineSlot[maxBatch];
        try
        {
            while (running)
            {
                final PipelineSlot first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null)
                {
                    continue;
                }
                taken.add(first);
                queue.drainTo(taken, maxBatch - taken.size());
                if (maxDelayNs > 0)
                {
                    final long deadline = System.nanoTime() + maxDelayNs;
                    while (taken.size() < maxBatch)
                    {
                        final long left = deadline - System.nanoTime();
                        final PipelineSlot next = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
                        if (next == null)
                        {
                            break;
                        }
                        taken.add(next);
                        queue.drainTo(taken, maxBatch - taken.size());
                    }
                }
                final int count = taken.size();
                for (int i = 0; i < count; i++)
                {
                    slots[i] = taken.get(i);
                }
                taken.clear();
                completions.run(batch, slots, count);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
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
        worker.interrupt();
        try
        {
            worker.join(5_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        // Whatever a caller submitted while the worker stopped is answered, so that no caller waits forever.
        for (PipelineSlot slot = queue.poll(); slot != null; slot = queue.poll())
        {
            slot.fail("djl-style pipeline closed");
        }
        arena.close();
    }

    /** @return the model this pipeline serves */
    ModelConfig config()
    {
        return config;
    }
}
