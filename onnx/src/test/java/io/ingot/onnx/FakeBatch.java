package io.ingot.onnx;

import io.ingot.api.DataType;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelOutput;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A batch as the runtime would hand it to an engine, with memory from a test arena. Records every output allocation
 * so tests can see what the engine asked for and read what it wrote.
 */
final class FakeBatch implements Batch
{
    /** One recorded {@link #allocateOutput} call. */
    record Allocation(String name, long[] shape, MemorySegment memory)
    {
    }

    private final ModelConfig config;
    private final Arena arena;
    private final int batchSize;
    private final Map<String, Input> inputs = new LinkedHashMap<>();
    private final Set<String> requested;
    private final List<Allocation> allocations = new ArrayList<>();
    private boolean heapOutputs;

    /**
     * @param config    the model configuration
     * @param arena     owner of all memory
     * @param batchSize the batch size
     * @param requested requested outputs
     */
    FakeBatch(final ModelConfig config, final Arena arena, final int batchSize, final Set<String> requested)
    {
        this.config = config;
        this.arena = arena;
        this.batchSize = batchSize;
        this.requested = requested;
    }

    FakeBatch heapOutputs()
    {
        heapOutputs = true;
        return this;
    }

    FakeBatch floats(final String name, final long[] shape, final float... values)
    {
        final MemorySegment data = arena.allocate((long) values.length * Float.BYTES, 64);
        MemorySegment.copy(values, 0, data, java.lang.foreign.ValueLayout.JAVA_FLOAT, 0, values.length);
        inputs.put(name, new Input(name, DataType.FP32, shape, data));
        return this;
    }

    FakeBatch longs(final String name, final long[] shape, final long... values)
    {
        final MemorySegment data = arena.allocate((long) values.length * Long.BYTES, 64);
        MemorySegment.copy(values, 0, data, java.lang.foreign.ValueLayout.JAVA_LONG, 0, values.length);
        inputs.put(name, new Input(name, DataType.INT64, shape, data));
        return this;
    }

    FakeBatch raw(final String name, final DataType type, final long[] shape, final MemorySegment data)
    {
        inputs.put(name, new Input(name, type, shape, data));
        return this;
    }

    List<Allocation> allocations()
    {
        return allocations;
    }

    Allocation allocation(final String name)
    {
        for (final Allocation allocation : allocations)
        {
            if (allocation.name().equals(name))
            {
                return allocation;
            }
        }
        return null;
    }

    float[] floatsOf(final String name)
    {
        return allocation(name).memory().toArray(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED);
    }

    @Override
    public ModelConfig config()
    {
        return config;
    }

    @Override
    public int batchSize()
    {
        return batchSize;
    }

    @Override
    public int requestCount()
    {
        return 1;
    }

    @Override
    public int inputCount()
    {
        return inputs.size();
    }

    @Override
    public BatchInput input(final int index)
    {
        return new ArrayList<>(inputs.values()).get(index);
    }

    @Override
    public BatchInput input(final String name)
    {
        return inputs.get(name);
    }

    @Override
    public boolean isOutputRequested(final String name)
    {
        return requested.contains(name);
    }

    @Override
    public MemorySegment allocateOutput(final String name, final long[] shape, final long byteSize)
    {
        final MemorySegment memory = heapOutputs
            ? MemorySegment.ofArray(new byte[Math.toIntExact(byteSize)])
            : arena.allocate(Math.max(1, byteSize), 64).asSlice(0, byteSize);
        allocations.add(new Allocation(name, shape.clone(), memory));
        return memory;
    }

    @Override
    public MemorySegment allocateOutput(final String name, final long[] shape)
    {
        ModelOutput output = null;
        for (final ModelOutput candidate : config.getOutputList())
        {
            if (candidate.getName().equals(name))
            {
                output = candidate;
            }
        }
        if (output == null)
        {
            throw new IllegalArgumentException("no output " + name);
        }
        long elements = 1;
        for (final long dim : shape)
        {
            if (dim < 0)
            {
                throw new IllegalArgumentException("wildcard in output shape " + Arrays.toString(shape));
            }
            elements *= dim;
        }
        final long bytes = elements * DataType.fromConfigNumber(output.getDataType().getNumber()).byteSize();
        final MemorySegment memory = heapOutputs
            ? MemorySegment.ofArray(new byte[Math.toIntExact(bytes)])
            : arena.allocate(bytes, 64);
        allocations.add(new Allocation(name, shape.clone(), memory));
        return memory;
    }

    /** One input. */
    record Input(String name, DataType dataType, long[] shapeArray, MemorySegment data) implements BatchInput
    {
        @Override
        public int rank()
        {
            return shapeArray.length;
        }

        @Override
        public long dim(final int dimension)
        {
            return shapeArray[dimension];
        }

        @Override
        public long[] shape()
        {
            return shapeArray.clone();
        }
    }
}
