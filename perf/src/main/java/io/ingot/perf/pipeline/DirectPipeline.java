package io.ingot.perf.pipeline;

import io.ingot.config.proto.ModelConfig;

import java.lang.foreign.Arena;
import java.util.concurrent.atomic.LongAdder;

/**
 * The floor of every pipeline: the engine called directly on the caller's thread, one request per execution, each
 * caller thread with an engine of its own. No queue, no hand-off, no other thread.
 */
public final class DirectPipeline implements Pipeline
{
    private final ModelConfig config;
    private final long width;
    private final Arena arena = Arena.ofShared();
    private final ThreadLocal<EngineBatch> batches;
    private final LongAdder requests = new LongAdder();

    /**
     * @param config the identity model's configuration
     * @param width  elements per request
     */
    public DirectPipeline(final ModelConfig config, final long width)
    {
        this.config = config;
        this.width = width;
        this.batches = ThreadLocal.withInitial(() -> new EngineBatch(config, BaselineEngine.create(config, 0), width,
            1, arena));
    }

    @Override
    public String name()
    {
        return "direct";
    }

    @Override
    public PipelineSlot newSlot(final Arena slotArena)
    {
        return new PipelineSlot(slotArena.allocate(width * Float.BYTES, 64), slotArena.allocate(width * Float.BYTES,
            64), new PipelineSlot[1]);
    }

    @Override
    public void submit(final PipelineSlot slot)
    {
        final PipelineSlot[] one = (PipelineSlot[])slot.attachment();
        one[0] = slot;
        try
        {
            batches.get().run(one, 1);
            requests.increment();
            slot.complete();
        }
        catch (final Exception ex)
        {
            slot.fail("direct call failed: " + ex.getMessage());
        }
    }

    @Override
    public long requests()
    {
        return requests.sum();
    }

    @Override
    public long executions()
    {
        return requests.sum();
    }

    @Override
    public void close()
    {
        // The engines' memory goes with the arena; identity engines hold nothing else.
        arena.close();
    }

    /** @return the model this pipeline serves */
    ModelConfig config()
    {
        return config;
    }
}
