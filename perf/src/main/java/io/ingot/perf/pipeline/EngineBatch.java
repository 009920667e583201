package io.ingot.perf.pipeline;

import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.Engine;
import io.ingot.config.proto.ModelConfig;
import io.ingot.tensor.DataType;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * How the baselines run the engine, with the same copies Ingot makes: a batch of one passes the caller's input
 * through and has the engine write straight into the caller's output; a larger batch copies each input row once into
 * staging and each output row once out of it. Allocation-free after the first batch of each size. One thread at a
 * time (its pipeline's worker, or its caller for the direct call).
 */
final class EngineBatch implements Batch, BatchInput
{
    private final ModelConfig config;
    private final Engine engine;
    private final String inputName;
    private final String outputName;
    private final long rowBytes;
    private final long width;
    private final MemorySegment inputStaging;
    private final MemorySegment outputStaging;
    private final MemorySegment[] inputRows;
    private final MemorySegment[] outputRows;
    private PipelineSlot[] slots;
    private int rows;

    /**
     * @param config   the identity model's configuration (one FP32 input, one output)
     * @param engine   the engine, used by this batch's thread only
     * @param width    elements per row
     * @param maxBatch the most rows
     * @param arena    owner of the staging
     */
    EngineBatch(final ModelConfig config, final Engine engine, final long width, final int maxBatch,
        final Arena arena)
    {
        this.config = config;
        this.engine = engine;
        this.inputName = config.getInput(0).getName();
        this.outputName = config.getOutput(0).getName();
        this.width = width;
        this.rowBytes = width * Float.BYTES;
        this.inputStaging = arena.allocate(rowBytes * maxBatch, 64);
        this.outputStaging = arena.allocate(rowBytes * maxBatch, 64);
        this.inputRows = new MemorySegment[maxBatch + 1];
        this.outputRows = new MemorySegment[maxBatch + 1];
    }

    /**
     * Runs one batch: assembles, executes, scatters. Does not complete the slots.
     *
     * @param batch the requests
     * @param count how many of them
     * @throws Exception the engine's failure
     */
    void run(final PipelineSlot[] batch, final int count) throws Exception
    {
        slots = batch;
        rows = count;
        if (count > 1)
        {
            for (int r = 0; r < count; r++)
            {
                MemorySegment.copy(batch[r].input(), 0, inputStaging, r * rowBytes, rowBytes);
            }
        }
        engine.execute(this);
        if (count > 1)
        {
            for (int r = 0; r < count; r++)
            {
                MemorySegment.copy(outputStaging, r * rowBytes, batch[r].output(), 0, rowBytes);
            }
        }
        slots = null;
    }

    @Override
    public ModelConfig config()
    {
        return config;
    }

    @Override
    public int batchSize()
    {
        return rows;
    }

    @Override
    public int requestCount()
    {
        return rows;
    }

    @Override
    public int inputCount()
    {
        return 1;
    }

    @Override
    public BatchInput input(final int index)
    {
        return this;
    }

    @Override
    public BatchInput input(final String name)
    {
        return inputName.equals(name) ? this : null;
    }

    @Override
    public boolean isOutputRequested(final String name)
    {
        return outputName.equals(name);
    }

    @Override
    public MemorySegment allocateOutput(final String name, final long[] shape)
    {
        if (rows == 1)
        {
            return slots[0].output();
        }
        MemorySegment view = outputRows[rows];
        if (view == null)
        {
            view = outputStaging.asSlice(0, rows * rowBytes);
            outputRows[rows] = view;
        }
        return view;
    }

    @Override
    public MemorySegment allocateOutput(final String name, final long[] shape, final long byteSize)
    {
        return allocateOutput(name, shape);
    }

    @Override
    public String name()
    {
        return inputName;
    }

    @Override
    public DataType dataType()
    {
        return DataType.FP32;
    }

    @Override
    public int rank()
    {
        return 2;
    }

    @Override
    public long dim(final int dimension)
    {
        return dimension == 0 ? rows : width;
    }

    @Override
    public long[] shape()
    {
        return new long[] {rows, width};
    }

    @Override
    public MemorySegment data()
    {
        if (rows == 1)
        {
            return slots[0].input();
        }
        MemorySegment view = inputRows[rows];
        if (view == null)
        {
            view = inputStaging.asSlice(0, rows * rowBytes);
            inputRows[rows] = view;
        }
        return view;
    }
}
