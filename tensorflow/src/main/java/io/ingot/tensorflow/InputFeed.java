package io.ingot.tensorflow;

import io.ingot.backend.BatchInput;
import io.ingot.tensor.DataType;
import io.ingot.tensorflow.capi.TensorFlowC;
import io.ingot.tensorflow.capi.TensorReleases;
import io.ingot.tensorflow.capi.TfSession;
import io.ingot.tensorflow.capi.TfStrings;
import io.ingot.tensorflow.savedmodel.DataTypes;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Turns one configured input of each batch into a {@code TF_Tensor} over the batch's own memory.
 *
 * <p><b>Zero copy.</b> {@code TF_NewTensor} is given the batch's bytes and a deallocator that frees nothing
 * ({@link TensorReleases}); TensorFlow uses the memory in place when it is aligned to
 * {@code TF_TensorDefaultAlignment()} (64 bytes for this build). The runtime's staging buffers are page-aligned, so
 * every batch of two or more requests is fed without a copy. A single request's input is the request's own memory;
 * when its address is not aligned (memory a caller or a frontend handed over at an odd address) this feed copies it
 * once into aligned memory of its own, reused from batch to batch, and counts the copy ({@link #copies()}), because
 * {@code TF_NewTensor} would otherwise copy into a fresh allocation on every call. {@code BYTES} inputs become
 * {@code TF_TString} views of the request's bytes: only the 24-byte string headers are written.
 *
 * <p><b>Shapes.</b> The tensor has the batch input's shape, or, when the input has a {@code reshape}, the batch
 * dimension followed by the reshape (a {@code -1} in it worked out from the element count).
 *
 * <p>Used by its engine's thread only; allocates only when a batch is larger than every earlier one.
 */
final class InputFeed
{
    private static final System.Logger LOG = System.getLogger(InputFeed.class.getName());

    private final String model;
    private final String name;
    private final DataType type;
    private final int tfType;
    private final long[] reshape;
    private final boolean batching;
    private final long alignment;
    private final Arena arena;
    private final MemorySegment output;
    private MemorySegment dims;
    private MemorySegment scratch = MemorySegment.NULL;
    private long copies;

    /**
     * @param model     the model, for messages
     * @param name      the input's name
     * @param type      its type
     * @param reshape   the configured {@code reshape} (without the batch dimension), or {@code null}
     * @param batching  whether the model batches
     * @param tensor    the graph tensor it feeds
     * @param alignment {@code TF_TensorDefaultAlignment()}
     * @param arena     the engine's memory
     */
    InputFeed(final String model, final String name, final DataType type, final long[] reshape,
        final boolean batching, final TfSession.GraphTensor tensor, final long alignment, final Arena arena)
    {
        this.model = model;
        this.name = name;
        this.type = type;
        this.tfType = DataTypes.toTf(type);
        this.reshape = reshape;
        this.batching = batching;
        this.alignment = alignment;
        this.arena = arena;
        this.output = arena.allocate(TensorFlowC.TF_OUTPUT);
        output.set(ValueLayout.ADDRESS, 0, tensor.operation());
        output.set(ValueLayout.JAVA_INT, 8, tensor.index());
        this.dims = arena.allocate(ValueLayout.JAVA_LONG, 8);
    }

    /** @return the input's name */
    String name()
    {
        return name;
    }

    /** @return the {@code TF_Output} this input feeds */
    MemorySegment output()
    {
        return output;
    }

    /** @return how many batches' inputs were copied because their memory was not aligned */
    long copies()
    {
        return copies;
    }

    /**
     * @param input    this input of the current batch
     * @param releases the engine's deallocator
     * @return a new {@code TF_Tensor*}, which the caller deletes after the run
     * @throws IllegalArgumentException when the input's bytes do not fit its shape
     */
    MemorySegment tensor(final BatchInput input, final TensorReleases releases)
    {
        final int rank = writeDims(input);
        final MemorySegment data = input.data();
        final MemorySegment tensor;
        if (type == DataType.BYTES)
        {
            final long count = elements(rank);
            final MemorySegment strings = scratch(count * TfStrings.TSTRING_BYTES);
            TfStrings.writeViews(data, count, strings);
            releases.lent();
            tensor = TensorFlowC.TF_NewTensor(tfType, dims, rank, strings, count * TfStrings.TSTRING_BYTES,
                releases.function(), MemorySegment.NULL);
        }
        else
        {
            final long bytes = elements(rank) * type.byteSize();
            if (data.byteSize() != bytes)
            {
                throw new IllegalArgumentException("model '" + model + "': input '" + name + "' holds "
                    + data.byteSize() + " bytes, its shape needs " + bytes);
            }
            MemorySegment lent = data;
            if (!data.isNative() || data.address() % alignment != 0)
            {
                lent = scratch(bytes);
                MemorySegment.copy(data, 0, lent, 0, bytes);
                if (copies++ == 0)
                {
                    LOG.log(System.Logger.Level.INFO, "model ''{0}'': input ''{1}'' arrived at an address not aligned"
                        + " to {2} bytes (TF_TensorDefaultAlignment); such inputs are copied once into aligned memory"
                        + " (batched inputs never are: staging is page-aligned)", model, name, alignment);
                }
            }
            releases.lent();
            tensor = TensorFlowC.TF_NewTensor(tfType, dims, rank, lent, bytes, releases.function(),
                MemorySegment.NULL);
        }
        if (tensor.address() == 0)
        {
            throw new IllegalStateException("model '" + model + "': TF_NewTensor refused input '" + name + "'");
        }
        return tensor;
    }

    private int writeDims(final BatchInput input)
    {
        if (reshape == null)
        {
            final int rank = input.rank();
            ensureDims(rank);
            for (int i = 0; i < rank; i++)
            {
                dims.setAtIndex(ValueLayout.JAVA_LONG, i, input.dim(i));
            }
            return rank;
        }
        long elements = 1;
        for (int i = 0; i < input.rank(); i++)
        {
            elements *= input.dim(i);
        }
        final int first = batching ? 1 : 0;
        final int rank = reshape.length + first;
        ensureDims(rank);
        long known = 1;
        int wildcard = -1;
        if (batching)
        {
            dims.setAtIndex(ValueLayout.JAVA_LONG, 0, input.dim(0));
            known = input.dim(0);
        }
        for (int i = 0; i < reshape.length; i++)
        {
            dims.setAtIndex(ValueLayout.JAVA_LONG, first + i, reshape[i]);
            if (reshape[i] < 0)
            {
                wildcard = first + i;
            }
            else
            {
                known *= reshape[i];
            }
        }
        if (wildcard >= 0)
        {
            dims.setAtIndex(ValueLayout.JAVA_LONG, wildcard, known == 0 ? 0 : elements / known);
        }
        return rank;
    }

    private long elements(final int rank)
    {
        long elements = 1;
        for (int i = 0; i < rank; i++)
        {
            elements *= dims.getAtIndex(ValueLayout.JAVA_LONG, i);
        }
        return elements;
    }

    private void ensureDims(final int rank)
    {
        if (dims.byteSize() < (long) rank * Long.BYTES)
        {
            dims = arena.allocate(ValueLayout.JAVA_LONG, rank);
        }
    }

    private MemorySegment scratch(final long bytes)
    {
        if (scratch.byteSize() < bytes)
        {
            scratch = arena.allocate(Math.max(bytes, scratch.byteSize() * 2), alignment);
        }
        return scratch.asSlice(0, bytes);
    }
}
