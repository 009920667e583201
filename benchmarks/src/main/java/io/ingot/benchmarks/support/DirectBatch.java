package io.ingot.benchmarks.support;

import io.ingot.api.DataType;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.config.proto.ModelConfig;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The least a caller needs to run an engine on its own thread: one request's single input passed through and one
 * preallocated output. This is the baseline of the in-process overhead benchmark — what calling a backend directly
 * costs, with no ring, batcher, instance thread or response. Not thread-safe: one per caller thread.
 */
public final class DirectBatch implements Batch, BatchInput
{
    private final ModelConfig config;
    private final String inputName;
    private final DataType dataType;
    private final String outputName;
    private final long[] shape;
    private final MemorySegment input;
    private final MemorySegment output;

    /**
     * @param config the model configuration (one input, one output)
     * @param shape  the input's shape, batch dimension included
     * @param input  the input bytes
     * @param output where the engine writes the output; exactly the output's size
     */
    public DirectBatch(final ModelConfig config, final long[] shape, final MemorySegment input,
        final MemorySegment output)
    {
        if (config.getInputCount() != 1 || config.getOutputCount() != 1)
        {
            throw new IllegalArgumentException("a direct batch serves models with one input and one output; '"
                + config.getName() + "' has " + config.getInputCount() + " and " + config.getOutputCount());
        }
        this.config = config;
        this.inputName = config.getInput(0).getName();
        this.dataType = DataType.fromConfigNumber(config.getInput(0).getDataTypeValue());
        this.outputName = config.getOutput(0).getName();
        this.shape = shape.clone();
        this.input = input;
        this.output = output;
    }

    @Override
    public ModelConfig config()
    {
        return config;
    }

    @Override
    public int batchSize()
    {
        return config.getMaxBatchSize() > 0 ? (int)shape[0] : 1;
    }

    @Override
    public int requestCount()
    {
        return 1;
    }

    @Override
    public int inputCount()
    {
        return 1;
    }

    @Override
    public BatchInput input(final int index)
    {
        if (index != 0)
        {
            throw new IndexOutOfBoundsException("input " + index + " of 1");
        }
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
    public MemorySegment allocateOutput(final String name, final long[] outputShape)
    {
        return allocateOutput(name, outputShape, output.byteSize());
    }

    @Override
    public MemorySegment allocateOutput(final String name, final long[] outputShape, final long byteSize)
    {
        if (!outputName.equals(name) || byteSize != output.byteSize())
        {
            throw new IllegalArgumentException("direct batch of '" + config.getName() + "' holds output '"
                + outputName + "' of " + output.byteSize() + " bytes; asked for '" + name + "' of " + byteSize);
        }
        return output;
    }

    @Override
    public String name()
    {
        return inputName;
    }

    @Override
    public DataType dataType()
    {
        return dataType;
    }

    @Override
    public int rank()
    {
        return shape.length;
    }

    @Override
    public long dim(final int dimension)
    {
        return shape[dimension];
    }

    @Override
    public long[] shape()
    {
        return Arrays.copyOf(shape, shape.length);
    }

    @Override
    public MemorySegment data()
    {
        return input;
    }
}
