package io.ingot.trt.testing;

import io.ingot.api.DataType;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.config.proto.ModelConfig;
import io.ingot.device.PinnedAllocator;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@link Batch} for testing engines in isolation: inputs in native memory, every configured output (or the
 * given subset) requested, outputs allocated in the batch's own arena and kept for inspection. Close it to free
 * the memory.
 */
public final class TestBatch implements Batch, AutoCloseable
{
    private final ModelConfig config;
    private final int batchSize;
    private final Arena arena = Arena.ofShared();
    private final PinnedAllocator allocator;
    private final List<Input> inputs = new ArrayList<>();
    private final Set<String> requested;
    private final Map<String, MemorySegment> outputs = new LinkedHashMap<>();
    private final Map<String, long[]> outputShapes = new LinkedHashMap<>();

    /**
     * @param config    the model configuration
     * @param batchSize the batch size
     * @param requested outputs requested, or {@code null} for all configured outputs
     */
    public TestBatch(final ModelConfig config, final int batchSize, final Set<String> requested)
    {
        this(config, batchSize, requested, null);
    }

    /**
     * @param config    the model configuration
     * @param batchSize the batch size
     * @param requested outputs requested, or {@code null} for all configured outputs
     * @param allocator where input and output memory comes from (pinned CUDA memory on a GPU), or {@code null}
     *                  for plain off-heap memory
     */
    public TestBatch(final ModelConfig config, final int batchSize, final Set<String> requested,
        final PinnedAllocator allocator)
    {
        this.config = config;
        this.batchSize = batchSize;
        this.requested = requested;
        this.allocator = allocator;
    }

    /**
     * @param config    the model configuration
     * @param batchSize the batch size
     */
    public TestBatch(final ModelConfig config, final int batchSize)
    {
        this(config, batchSize, null);
    }

    /**
     * @param name   input name
     * @param type   element type
     * @param shape  shape (with the batch dimension when the model batches)
     * @param values the elements (float[], int[] or long[])
     * @return this
     */
    public TestBatch input(final String name, final DataType type, final long[] shape, final Object values)
    {
        final MemorySegment source = switch (values)
        {
            case float[] floats -> MemorySegment.ofArray(floats);
            case int[] ints -> MemorySegment.ofArray(ints);
            case long[] longs -> MemorySegment.ofArray(longs);
            default -> throw new IllegalArgumentException("unsupported values " + values.getClass());
        };
        final MemorySegment data = memory(source.byteSize()).copyFrom(source);
        inputs.add(new Input(name, type, shape.clone(), data));
        return this;
    }

    /**
     * @param name output name
     * @return the memory the engine wrote, or {@code null} when it was not allocated
     */
    public MemorySegment output(final String name)
    {
        return outputs.get(name);
    }

    /**
     * @param name output name
     * @return the shape the engine allocated it with
     */
    public long[] outputShape(final String name)
    {
        return outputShapes.get(name);
    }

    /**
     * @param name output name
     * @return its elements as floats
     */
    public float[] floats(final String name)
    {
        return outputs.get(name).toArray(java.lang.foreign.ValueLayout.JAVA_FLOAT);
    }

    /**
     * @param name output name
     * @return its elements as ints
     */
    public int[] ints(final String name)
    {
        return outputs.get(name).toArray(java.lang.foreign.ValueLayout.JAVA_INT);
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
        return inputs.get(index);
    }

    @Override
    public BatchInput input(final String name)
    {
        for (final Input input : inputs)
        {
            if (input.name().equals(name))
            {
                return input;
            }
        }
        return null;
    }

    @Override
    public boolean isOutputRequested(final String name)
    {
        return requested == null
            ? config.getOutputList().stream().anyMatch(output -> output.getName().equals(name))
            : requested.contains(name);
    }

    @Override
    public MemorySegment allocateOutput(final String name, final long[] shape)
    {
        final var output = config.getOutputList().stream().filter(candidate -> candidate.getName().equals(name))
            .findFirst().orElseThrow(() -> new IllegalArgumentException("unknown output '" + name + "'"));
        final DataType type = DataType.fromConfigNumber(output.getDataType().getNumber());
        long elements = 1;
        for (final long dim : shape)
        {
            elements *= dim;
        }
        final MemorySegment memory = memory(elements * type.byteSize());
        outputs.put(name, memory);
        outputShapes.put(name, shape.clone());
        return memory;
    }

    @Override
    public MemorySegment allocateOutput(final String name, final long[] shape, final long byteSize)
    {
        final MemorySegment memory = memory(byteSize);
        outputs.put(name, memory);
        outputShapes.put(name, shape.clone());
        return memory;
    }

    @Override
    public void close()
    {
        arena.close();
    }

    private MemorySegment memory(final long byteSize)
    {
        if (allocator != null)
        {
            return allocator.allocate(byteSize, arena);
        }
        return arena.allocate(Math.max(1, byteSize), 64).asSlice(0, byteSize);
    }

    private record Input(String name, DataType dataType, long[] shape, MemorySegment data) implements BatchInput
    {
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
            return shape.clone();
        }
    }
}
