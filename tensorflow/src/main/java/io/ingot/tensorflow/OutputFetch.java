package io.ingot.tensorflow;

import io.ingot.backend.Batch;
import io.ingot.backend.SequenceBatchTensors;
import io.ingot.tensor.DataType;
import io.ingot.tensorflow.capi.TensorFlowC;
import io.ingot.tensorflow.capi.TfSession;
import io.ingot.tensorflow.capi.TfStrings;
import io.ingot.tensorflow.savedmodel.DataTypes;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Writes one output of a run into the memory {@link Batch#allocateOutput} gives: the {@code TF_Tensor}
 * {@code TF_SessionRun} returned is copied there once (TensorFlow's C API allocates its outputs itself, so this one
 * copy is the only one). {@code TF_STRING} outputs are encoded into Triton's {@code BYTES} layout. The shape is the
 * tensor's own, or, when the output has a {@code reshape}, the batch dimension followed by the configured
 * {@code dims} (a {@code -1} worked out from the element count). The output of an implicit state must have the
 * state's {@code dims} (after the batch dimension; {@code -1} takes any size): its shape may change from request to
 * request only there. Used by its engine's thread only; the shape arrays are kept from batch to batch.
 */
final class OutputFetch
{
    private final String model;
    private final String name;
    private final DataType type;
    private final int tfType;
    private final long[] dims;
    private final boolean reshaped;
    private final boolean batching;
    private final MemorySegment output;
    private final String state;
    private long[] shape = new long[0];

    /**
     * @param model    the model, for messages
     * @param name     the output's name
     * @param type     its type
     * @param dims     the configured {@code dims} (without the batch dimension)
     * @param reshaped whether the configuration reshapes it
     * @param batching whether the model batches
     * @param tensor   the graph tensor it fetches
     * @param arena    the engine's memory
     */
    OutputFetch(final String model, final String name, final DataType type, final long[] dims,
        final boolean reshaped, final boolean batching, final TfSession.GraphTensor tensor, final Arena arena)
    {
        this(model, name, type, dims, reshaped, batching, tensor, arena, null);
    }

    private OutputFetch(final String model, final String name, final DataType type, final long[] dims,
        final boolean reshaped, final boolean batching, final TfSession.GraphTensor tensor, final Arena arena,
        final String state)
    {
        this.model = model;
        this.name = name;
        this.type = type;
        this.tfType = DataTypes.toTf(type);
        this.dims = dims;
        this.reshaped = reshaped;
        this.batching = batching;
        this.output = arena.allocate(TensorFlowC.TF_OUTPUT);
        output.set(ValueLayout.ADDRESS, 0, tensor.operation());
        output.set(ValueLayout.JAVA_INT, 8, tensor.index());
        this.state = state;
    }

    /**
     * @param model    the model, for messages
     * @param state    an implicit state of the model
     * @param batching whether the model batches
     * @param tensor   the graph tensor of the state's {@code output_name}
     * @param arena    the engine's memory
     * @return the fetch of the state's output, which checks its shape against the state's dims
     */
    static OutputFetch ofState(final String model, final SequenceBatchTensors.State state, final boolean batching,
        final TfSession.GraphTensor tensor, final Arena arena)
    {
        return new OutputFetch(model, state.outputName(), state.dataType(), state.dimsArray(), false, batching,
            tensor, arena, state.inputName());
    }

    /** @return the output's name */
    String name()
    {
        return name;
    }

    /** @return the {@code TF_Output} this output fetches */
    MemorySegment output()
    {
        return output;
    }

    /**
     * @param tensor the {@code TF_Tensor*} the run returned for this output
     * @param batch  the batch
     * @throws IllegalStateException when the tensor is not of the configured type or shape
     */
    void deliver(final MemorySegment tensor, final Batch batch)
    {
        if (tensor.address() == 0)
        {
            throw new IllegalStateException("model '" + model + "': TF_SessionRun returned no tensor for output '"
                + name + "'");
        }
        final int actualType = TensorFlowC.TF_TensorType(tensor);
        if (actualType != tfType)
        {
            throw new IllegalStateException("model '" + model + "': output '" + name + "' came back as "
                + DataTypes.name(actualType) + ", the configuration says " + type);
        }
        final long elements = readShape(tensor);
        if (state != null && !fitsStateDims())
        {
            throw new IllegalStateException("model '" + model + "': state output '" + name + "' of implicit state '"
                + state + "' has shape " + Arrays.toString(shape).replace(" ", "") + ", but the state's dims are "
                + Arrays.toString(dims).replace(" ", "") + (batching ? " after the batch dimension" : "") + ": a state"
                + " keeps its configured shape from request to request, except in dimensions given as -1");
        }
        final MemorySegment data = TensorFlowC.tensorBytes(tensor);
        final long byteSize = data.byteSize();
        if (type == DataType.BYTES)
        {
            final MemorySegment strings = data.asSlice(0, elements * TfStrings.TSTRING_BYTES);
            final MemorySegment memory = batch.allocateOutput(name, shape, TfStrings.encodedSize(strings, elements));
            TfStrings.encode(strings, elements, memory);
            return;
        }
        final MemorySegment memory = batch.allocateOutput(name, shape);
        if (memory.byteSize() != byteSize)
        {
            throw new IllegalStateException("model '" + model + "': output '" + name + "' has " + byteSize
                + " bytes, its shape " + Arrays.toString(shape) + " needs " + memory.byteSize());
        }
        MemorySegment.copy(data, 0, memory, 0, byteSize);
    }

    private boolean fitsStateDims()
    {
        final int first = batching ? 1 : 0;
        if (shape.length != dims.length + first)
        {
            return false;
        }
        for (int i = 0; i < dims.length; i++)
        {
            if (dims[i] >= 0 && dims[i] != shape[first + i])
            {
                return false;
            }
        }
        return true;
    }

    private long readShape(final MemorySegment tensor)
    {
        final int rank = TensorFlowC.TF_NumDims(tensor);
        long elements = 1;
        for (int i = 0; i < rank; i++)
        {
            elements *= TensorFlowC.TF_Dim(tensor, i);
        }
        if (!reshaped)
        {
            if (shape.length != rank)
            {
                shape = new long[rank];
            }
            for (int i = 0; i < rank; i++)
            {
                shape[i] = TensorFlowC.TF_Dim(tensor, i);
            }
            return elements;
        }
        final int first = batching ? 1 : 0;
        if (shape.length != dims.length + first)
        {
            shape = new long[dims.length + first];
        }
        long known = 1;
        int wildcard = -1;
        if (batching)
        {
            shape[0] = rank == 0 ? 1 : TensorFlowC.TF_Dim(tensor, 0);
            known = shape[0];
        }
        for (int i = 0; i < dims.length; i++)
        {
            shape[first + i] = dims[i];
            if (dims[i] < 0)
            {
                wildcard = first + i;
            }
            else
            {
                known *= dims[i];
            }
        }
        if (wildcard >= 0)
        {
            shape[wildcard] = known == 0 ? 0 : elements / known;
        }
        return elements;
    }
}
