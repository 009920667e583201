package io.ingot.testing;

import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelOutput;
import io.ingot.device.PinnedAllocator;
import io.ingot.tensor.DataType;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@link Batch} as the runtime would hand it to an engine, for testing and measuring engines without a core. Input
 * values given as arrays are copied into its memory, and outputs the engine asks for are allocated there and
 * recorded, so a test can read what the engine wrote. The memory comes from an arena of its own, freed by
 * {@link #close()}, or from the caller's.
 *
 * <p>Two further uses keep a loop allocation-free: {@link #input(String, DataType, long[], MemorySegment)} wraps
 * memory the caller owns without copying, and {@link #outputInto} gives an output memory of its own, which
 * {@link #allocateOutput} then returns (a prefix of it when less is asked for) without allocating or recording. With
 * {@link #rows(int)} the same batch serves several batch sizes over that memory: inputs whose first dimension is the
 * batch dimension follow it.
 *
 * <p>One request per batch ({@link #requestCount()} is 1). Not thread-safe: one engine thread uses it at a time.
 */
public final class FakeBatch implements Batch, AutoCloseable
{
    /**
     * One recorded {@link #allocateOutput} call.
     *
     * @param name   the output
     * @param shape  the shape the engine asked for
     * @param memory what it was given
     */
    public record Allocation(String name, long[] shape, MemorySegment memory)
    {
    }

    private final ModelConfig config;
    private final Arena arena;
    private final boolean ownsArena;
    private final PinnedAllocator allocator;
    private final boolean batching;
    private final List<Input> inputs = new ArrayList<>();
    private final Map<String, MemorySegment> presetOutputs = new LinkedHashMap<>();
    private final List<Allocation> allocations = new ArrayList<>();
    private Set<String> requested;
    private boolean heapOutputs;
    private int batchSize;

    /**
     * A batch with memory from plain off-heap segments, every configured output requested.
     *
     * @param config    the model configuration
     * @param batchSize the total batch size (rows of each batched input)
     */
    public FakeBatch(final ModelConfig config, final int batchSize)
    {
        this(config, batchSize, (PinnedAllocator)null);
    }

    /**
     * @param config    the model configuration
     * @param batchSize the total batch size
     * @param allocator where input copies and outputs are allocated (pinned memory on a GPU), or {@code null} for
     *                  plain off-heap memory
     */
    public FakeBatch(final ModelConfig config, final int batchSize, final PinnedAllocator allocator)
    {
        this(config, batchSize, allocator, Arena.ofShared(), true);
    }

    /**
     * A batch whose memory comes from the caller's arena; {@link #close()} leaves the arena open.
     *
     * @param config    the model configuration
     * @param batchSize the total batch size
     * @param arena     owner of the batch's memory
     */
    public FakeBatch(final ModelConfig config, final int batchSize, final Arena arena)
    {
        this(config, batchSize, null, arena, false);
    }

    private FakeBatch(final ModelConfig config, final int batchSize, final PinnedAllocator allocator,
        final Arena arena, final boolean ownsArena)
    {
        this.config = config;
        this.batchSize = batchSize;
        this.allocator = allocator;
        this.arena = arena;
        this.ownsArena = ownsArena;
        this.batching = config.getMaxBatchSize() > 0;
    }

    /**
     * Requests only these outputs (by default every configured output is requested).
     *
     * @param names output names
     * @return this
     */
    public FakeBatch requestOutputs(final String... names)
    {
        requested = Set.of(names);
        return this;
    }

    /**
     * Allocates outputs on the heap instead of off-heap, as an allocator of heap segments would.
     *
     * @return this
     */
    public FakeBatch heapOutputs()
    {
        heapOutputs = true;
        return this;
    }

    /**
     * Adds an input whose values are copied into the batch's memory.
     *
     * @param name   input name
     * @param type   element type
     * @param shape  shape, with the batch dimension when the model batches
     * @param values the elements: {@code float[]}, {@code int[]}, {@code long[]}, {@code double[]}, {@code short[]}
     *               or {@code byte[]} (raw bytes, e.g. a BYTES tensor's length-prefixed elements)
     * @return this
     */
    public FakeBatch input(final String name, final DataType type, final long[] shape, final Object values)
    {
        final MemorySegment source = switch (values)
        {
            case float[] floats -> MemorySegment.ofArray(floats);
            case int[] ints -> MemorySegment.ofArray(ints);
            case long[] longs -> MemorySegment.ofArray(longs);
            case double[] doubles -> MemorySegment.ofArray(doubles);
            case short[] shorts -> MemorySegment.ofArray(shorts);
            case byte[] bytes -> MemorySegment.ofArray(bytes);
            default -> throw new IllegalArgumentException("unsupported input values " + values.getClass());
        };
        return input(name, type, shape, memory(source.byteSize()).copyFrom(source));
    }

    /**
     * Adds an input over memory the caller owns (not copied; it must stay valid while the batch is used).
     *
     * @param name  input name
     * @param type  element type
     * @param shape shape, with the batch dimension when the model batches
     * @param data  its bytes
     * @return this
     */
    public FakeBatch input(final String name, final DataType type, final long[] shape, final MemorySegment data)
    {
        inputs.add(new Input(name, type, shape.clone(), data));
        return this;
    }

    /**
     * Gives an output memory of its own: {@link #allocateOutput} returns it (or its first bytes) without allocating
     * or recording anything.
     *
     * @param name   output name
     * @param memory where the engine writes it
     * @return this
     */
    public FakeBatch outputInto(final String name, final MemorySegment memory)
    {
        presetOutputs.put(name, memory);
        return this;
    }

    /**
     * Changes the batch size; inputs whose first dimension was the batch size follow it, over the first rows of
     * their memory.
     *
     * @param rows the new total batch size
     * @return this
     */
    public FakeBatch rows(final int rows)
    {
        this.batchSize = rows;
        return this;
    }

    /** @return every recorded output allocation, in order. */
    public List<Allocation> allocations()
    {
        return allocations;
    }

    /**
     * @param name output name
     * @return its last recorded allocation, or {@code null} when the engine did not allocate it
     */
    public Allocation allocation(final String name)
    {
        for (int i = allocations.size() - 1; i >= 0; i--)
        {
            if (allocations.get(i).name().equals(name))
            {
                return allocations.get(i);
            }
        }
        return null;
    }

    /**
     * @param name output name
     * @return the memory the engine wrote it into, or {@code null} when it was not allocated
     */
    public MemorySegment output(final String name)
    {
        final Allocation allocation = allocation(name);
        return allocation == null ? presetOutputs.get(name) : allocation.memory();
    }

    /**
     * @param name output name
     * @return the shape the engine allocated it with, or {@code null}
     */
    public long[] outputShape(final String name)
    {
        final Allocation allocation = allocation(name);
        return allocation == null ? null : allocation.shape();
    }

    /**
     * @param name output name
     * @return its elements as floats
     */
    public float[] floats(final String name)
    {
        return output(name).toArray(ValueLayout.JAVA_FLOAT_UNALIGNED);
    }

    /**
     * @param name output name
     * @return its elements as ints
     */
    public int[] ints(final String name)
    {
        return output(name).toArray(ValueLayout.JAVA_INT_UNALIGNED);
    }

    /**
     * @param name output name
     * @return its elements as longs
     */
    public long[] longs(final String name)
    {
        return output(name).toArray(ValueLayout.JAVA_LONG_UNALIGNED);
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
        for (int i = 0; i < inputs.size(); i++)
        {
            if (inputs.get(i).name.equals(name))
            {
                return inputs.get(i);
            }
        }
        return null;
    }

    @Override
    public boolean isOutputRequested(final String name)
    {
        if (requested != null)
        {
            return requested.contains(name);
        }
        for (int i = 0; i < config.getOutputCount(); i++)
        {
            if (config.getOutput(i).getName().equals(name))
            {
                return true;
            }
        }
        return false;
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
            throw new IllegalArgumentException("model '" + config.getName() + "' has no output '" + name + "'");
        }
        long elements = 1;
        for (final long dim : shape)
        {
            if (dim < 0)
            {
                throw new IllegalArgumentException("output '" + name + "' shape " + Arrays.toString(shape)
                    + " has a wildcard");
            }
            elements *= dim;
        }
        return allocateOutput(name, shape, elements * DataType.fromConfigNumber(output.getDataTypeValue()).byteSize());
    }

    @Override
    public MemorySegment allocateOutput(final String name, final long[] shape, final long byteSize)
    {
        final MemorySegment preset = presetOutputs.get(name);
        if (preset != null)
        {
            if (byteSize > preset.byteSize())
            {
                throw new IllegalArgumentException("output '" + name + "' needs " + byteSize + " bytes; the batch "
                    + "holds " + preset.byteSize());
            }
            return byteSize == preset.byteSize() ? preset : preset.asSlice(0, byteSize);
        }
        final MemorySegment memory = heapOutputs ? MemorySegment.ofArray(new byte[Math.toIntExact(byteSize)])
            : memory(byteSize);
        allocations.add(new Allocation(name, shape.clone(), memory));
        return memory;
    }

    /** Frees the batch's memory, unless it came from the caller's arena. */
    @Override
    public void close()
    {
        if (ownsArena)
        {
            arena.close();
        }
    }

    private MemorySegment memory(final long byteSize)
    {
        if (allocator != null)
        {
            return allocator.allocate(byteSize, arena);
        }
        return arena.allocate(Math.max(1, byteSize), 64).asSlice(0, byteSize);
    }

    /** One input; a batched one follows the batch's current row count. */
    private final class Input implements BatchInput
    {
        private final String name;
        private final DataType dataType;
        private final long[] shape;
        private final MemorySegment data;
        private final boolean followsRows;

        Input(final String name, final DataType dataType, final long[] shape, final MemorySegment data)
        {
            this.name = name;
            this.dataType = dataType;
            this.shape = shape;
            this.data = data;
            this.followsRows = batching && shape.length > 0 && shape[0] == batchSize;
        }

        @Override
        public String name()
        {
            return name;
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
            return dimension == 0 && followsRows ? batchSize : shape[dimension];
        }

        @Override
        public long[] shape()
        {
            final long[] copy = shape.clone();
            if (followsRows)
            {
                copy[0] = batchSize;
            }
            return copy;
        }

        @Override
        public MemorySegment data()
        {
            if (!followsRows || batchSize == shape[0])
            {
                return data;
            }
            return data.asSlice(0, data.byteSize() / shape[0] * batchSize);
        }
    }
}
