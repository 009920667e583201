package io.ingot.trt.bench;

import io.ingot.api.DataType;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.config.proto.ModelConfig;

import java.lang.foreign.MemorySegment;

/**
 * A reusable one-input, one-output {@link Batch} over caller-owned memory, so that a benchmark loop allocates
 * nothing per execution: the input and the output memory are fixed, only the row count changes.
 */
final class BenchBatch implements Batch, BatchInput
{
    private final ModelConfig config;
    private final String inputName;
    private final String outputName;
    private final DataType dataType;
    private final long rowWidth;
    private final long outputWidth;
    private final MemorySegment input;
    private final MemorySegment output;
    private final long elementBytes;
    private int rows;

    BenchBatch(final ModelConfig config, final MemorySegment input, final MemorySegment output)
    {
        this.config = config;
        this.inputName = config.getInput(0).getName();
        this.outputName = config.getOutput(0).getName();
        this.dataType = DataType.fromConfigNumber(config.getInput(0).getDataType().getNumber());
        this.rowWidth = config.getInput(0).getDims(0);
        this.outputWidth = config.getOutput(0).getDims(0);
        this.elementBytes = dataType.byteSize();
        this.input = input;
        this.output = output;
    }

    /**
     * @param count rows of the next execution
     * @return this
     */
    BenchBatch rows(final int count)
    {
        this.rows = count;
        return this;
    }

    /** @return the output memory of the last execution's rows */
    MemorySegment outputRows()
    {
        return output.asSlice(0, rows * outputWidth * elementBytes);
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
        return output.asSlice(0, shape[0] * shape[1] * elementBytes);
    }

    @Override
    public MemorySegment allocateOutput(final String name, final long[] shape, final long byteSize)
    {
        return output.asSlice(0, byteSize);
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
        return 2;
    }

    @Override
    public long dim(final int dimension)
    {
        return dimension == 0 ? rows : rowWidth;
    }

    @Override
    public long[] shape()
    {
        return new long[] {rows, rowWidth};
    }

    @Override
    public MemorySegment data()
    {
        return input.asSlice(0, rows * rowWidth * elementBytes);
    }
}
