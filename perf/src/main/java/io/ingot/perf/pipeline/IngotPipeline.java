package io.ingot.perf.pipeline;

import io.ingot.api.CoreOptions;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelStatistics;
import io.ingot.api.ResponseAllocator;
import io.ingot.api.ResponseListener;
import io.ingot.config.proto.ModelConfig;
import io.ingot.tensor.DataType;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Ingot's in-process path: a core serving the identity model, each slot one reused {@link InferenceRequest} whose
 * output is written by the core straight into the slot's output row (a response allocator that returns it), and a
 * listener that completes the slot. Validation, the intake ring, the batching role, the instance's engine call and
 * the response are all the core's own.
 */
public final class IngotPipeline implements Pipeline
{
    private final String model;
    private final long width;
    private final InferenceCore core;

    /** One slot's reusable request, allocator and listener. */
    private static final class Call implements ResponseAllocator, ResponseListener
    {
        final InferenceRequest request;
        final MemorySegment output;
        PipelineSlot slot;

        Call(final String model, final long width, final MemorySegment input, final MemorySegment output)
        {
            this.output = output;
            this.request = new InferenceRequest(model).addInput("INPUT0", DataType.FP32, new long[] {1, width}, input)
                .responseAllocator(this);
        }

        @Override
        public MemorySegment allocate(final String outputName, final DataType dataType, final long[] shape,
            final long byteSize)
        {
            return byteSize == output.byteSize() ? output : output.asSlice(0, byteSize);
        }

        @Override
        public void release(final MemorySegment memory)
        {
        }

        @Override
        public void onResponse(final InferenceResponse response)
        {
            final boolean ok = response.isOk();
            final String failure = ok ? null : response.error().getMessage();
            response.close();
            if (ok)
            {
                slot.complete();
            }
            else
            {
                slot.fail(failure);
            }
        }
    }

    /**
     * @param config the identity model's configuration (its name is the model's)
     * @param width  elements per request
     * @param idle   how the core's threads wait for work
     */
    public IngotPipeline(final ModelConfig config, final long width, final IdleMode idle)
    {
        this.model = config.getName();
        this.width = width;
        this.core = InferenceCore.open(CoreOptions.builder().model(config).idleMode(idle).build());
        if (!core.isModelReady(model, InferenceRequest.DEFAULT_VERSION))
        {
            throw new IllegalStateException("benchmark model '" + model + "' did not load: "
                + core.repositoryIndex(false));
        }
    }

    @Override
    public String name()
    {
        return "ingot";
    }

    @Override
    public PipelineSlot newSlot(final Arena arena)
    {
        final MemorySegment input = arena.allocate(width * Float.BYTES, 64);
        final MemorySegment output = arena.allocate(width * Float.BYTES, 64);
        final Call call = new Call(model, width, input, output);
        final PipelineSlot slot = new PipelineSlot(input, output, call);
        call.slot = slot;
        return slot;
    }

    @Override
    public void submit(final PipelineSlot slot)
    {
        final Call call = (Call)slot.attachment();
        core.submit(call.request, call);
    }

    /**
     * Submits the slot's request with {@code InferenceCore.submitAndRun}: an idle instance's batch runs on the calling
     * thread.
     *
     * @param slot a slot of this pipeline
     */
    public void submitAndRun(final PipelineSlot slot)
    {
        final Call call = (Call)slot.attachment();
        core.submitAndRun(call.request, call);
    }

    /**
     * @param slot a slot of this pipeline
     * @return its reusable request, for a caller that submits it another way (a batch); its output still goes to the
     *     slot's output row
     */
    public InferenceRequest request(final PipelineSlot slot)
    {
        return ((Call)slot.attachment()).request;
    }

    @Override
    public long requests()
    {
        return statistics().inferenceCount();
    }

    @Override
    public long executions()
    {
        return statistics().executionCount();
    }

    private ModelStatistics statistics()
    {
        return core.modelStatistics(model, InferenceRequest.DEFAULT_VERSION).get(0);
    }

    /** @return the core (for benchmarks that look at it) */
    public InferenceCore core()
    {
        return core;
    }

    @Override
    public void close()
    {
        core.close();
    }
}
