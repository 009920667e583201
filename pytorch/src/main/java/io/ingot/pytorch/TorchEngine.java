package io.ingot.pytorch;

import ai.djl.Device;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.Shape;
import ai.djl.ndarray.types.SparseFormat;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.engine.PtNDManager;
import ai.djl.pytorch.engine.PtSymbolBlock;
import ai.djl.pytorch.jni.IValue;
import ai.djl.pytorch.jni.IValueUtils;
import ai.djl.pytorch.jni.JniUtils;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.Engine;
import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs batches of one model instance on a TorchScript module, as Triton's PyTorch backend runs them
 * ({@code ProcessRequests}, {@code Execute}, {@code ReadOutputTensors}).
 *
 * <p>Per batch: the graph executor's optimization is set for this thread ({@code DISABLE_OPTIMIZED_EXECUTION};
 * libtorch keeps it per thread); every tensor input becomes a torch tensor over the batch's own memory —
 * {@code JniUtils.createNdFromByteBuffer} calls {@code torch::from_blob} on the direct buffer's address, no copy — and
 * STRING inputs a {@code List[str]}; {@code forward} runs under {@code c10::InferenceMode} ({@code INFERENCE_MODE},
 * the default; DJL's {@code moduleRunMethod} guards with it) or under no-grad only; each requested output is checked
 * against the configuration (datatype, shape) and copied once into the memory {@link Batch#allocateOutput} returns.
 * The tensors and values made for a batch belong to a manager of that batch, closed when it ends.
 *
 * <p>STRING inputs and outputs need inference mode: DJL's only other way to run a module ({@code NDList}) carries
 * tensors alone (the plan refuses the combination at load).
 *
 * <p>Used by one thread at a time, the instance's.
 */
final class TorchEngine implements Engine
{
    private final IoPlan plan;
    private final TorchSettings settings;
    private final PtSymbolBlock module;
    private final PtNDManager manager;
    private final LoadedModule owned;
    private final IValue[] arguments;
    private final List<IValue> values = new ArrayList<>();

    /**
     * @param plan     how inputs and outputs meet forward
     * @param settings the model's parameters
     * @param module   the module to run (this instance's own, or shared)
     * @param manager  the manager the batches' tensors come from; closed with this engine
     * @param owned    the module to close with this engine, or {@code null} when it is shared
     */
    TorchEngine(final IoPlan plan, final TorchSettings settings, final PtSymbolBlock module,
        final PtNDManager manager, final LoadedModule owned)
    {
        this.plan = plan;
        this.settings = settings;
        this.module = module;
        this.manager = manager;
        this.owned = owned;
        this.arguments = new IValue[plan.convention() == IoPlan.Convention.DICT ? 1 : plan.inputs().size()];
    }

    @Override
    public void execute(final Batch batch)
    {
        JniUtils.setGraphExecutorOptimize(settings.optimizedExecution());
        try (PtNDManager scope = manager.newSubManager(Device.cpu()))
        {
            if (settings.inferenceMode())
            {
                runInInferenceMode(batch, scope);
            }
            else
            {
                runWithoutGrad(batch, scope);
            }
        }
        finally
        {
            for (final IValue value : values)
            {
                value.close();
            }
            values.clear();
        }
    }

    private void runInInferenceMode(final Batch batch, final PtNDManager scope)
    {
        if (plan.convention() == IoPlan.Convention.DICT)
        {
            final Map<String, PtNDArray> dict = new HashMap<>();
            for (final IoPlan.Input input : plan.inputs())
            {
                dict.put(input.name(), tensor(batch, input, scope));
            }
            arguments[0] = keep(IValue.stringMapFrom(dict));
        }
        else
        {
            for (final IoPlan.Input input : plan.inputs())
            {
                arguments[input.position()] = input.dataType() == DataType.BYTES ? strings(batch, input)
                    : keep(IValue.from(tensor(batch, input, scope)));
            }
        }
        final IValue result = keep(IValueUtils.forward(module, arguments));
        final IValue[] elements = elements(result);
        for (final IoPlan.Output output : plan.outputs())
        {
            if (!batch.isOutputRequested(output.name()))
            {
                continue;
            }
            final IValue element = element(elements, output);
            if (output.dataType() == DataType.BYTES)
            {
                if (!isStringList(element))
                {
                    throw failure("output '" + output.name() + "' is TYPE_STRING in the configuration, but the model"
                        + " returned " + element.getType() + " for it");
                }
                writeStrings(batch, output, element);
            }
            else
            {
                if (!element.isTensor())
                {
                    throw failure("output '" + output.name() + "' is " + TorchTypes.configName(output.dataType())
                        + " in the configuration, but the model returned " + element.getType() + " for it");
                }
                writeTensor(batch, output, element.toTensor(scope));
            }
        }
    }

    /** INFERENCE_MODE false: grad off for this thread, and DJL's run without an inference-mode guard. */
    private void runWithoutGrad(final Batch batch, final PtNDManager scope)
    {
        JniUtils.setGradMode(false);
        final PtNDArray[] tensors = new PtNDArray[plan.inputs().size()];
        for (final IoPlan.Input input : plan.inputs())
        {
            final PtNDArray tensor = tensor(batch, input, scope);
            if (plan.convention() == IoPlan.Convention.DICT)
            {
                // DJL's NDList convention: "<argument>.<key>" gathers tensors into one Dict[str, Tensor] argument.
                tensor.setName("input." + input.name());
            }
            tensors[input.position()] = tensor;
        }
        final NDList in = new NDList(tensors);
        final NDList out = IValueUtils.forward(module, in, true);
        for (final IoPlan.Output output : plan.outputs())
        {
            if (!batch.isOutputRequested(output.name()))
            {
                continue;
            }
            if (output.index() >= out.size())
            {
                throw failure(missingIndex(output, out.size()));
            }
            writeTensor(batch, output, (PtNDArray)out.get(output.index()));
        }
    }

    /** A torch tensor over the input's memory in the batch: {@code torch::from_blob}, no copy. */
    private PtNDArray tensor(final Batch batch, final IoPlan.Input input, final PtNDManager scope)
    {
        final BatchInput in = present(batch, input);
        return view(scope, in.data(), Shapes.modelShape(in.shape(), input.reshape(), plan.batching()),
            in.dataType());
    }

    /**
     * A CPU tensor over native memory: DJL's {@code createNdFromByteBuffer} passes the direct buffer's address to
     * {@code torch::from_blob}, which wraps it without copying (and keeps the buffer referenced while the tensor
     * lives). Empty memory gets a zero-element tensor of its own, as Triton makes for empty inputs.
     *
     * @param scope the manager the tensor belongs to
     * @param data  the memory, native, at most 2 GiB (a {@code ByteBuffer}'s limit)
     * @param shape the tensor's shape
     * @param type  its element type, one {@link TorchTypes#isTensorType} accepts
     * @return the tensor
     */
    static PtNDArray view(final PtNDManager scope, final MemorySegment data, final long[] shape, final DataType type)
    {
        final ai.djl.ndarray.types.DataType torchType = TorchTypes.toDjl(type);
        if (data.byteSize() == 0)
        {
            return (PtNDArray)scope.zeros(new Shape(shape), torchType);
        }
        return JniUtils.createNdFromByteBuffer(scope, data.asByteBuffer(), new Shape(shape), torchType,
            SparseFormat.DENSE, Device.cpu());
    }

    /** A {@code List[str]} of the input's elements (each a 4-byte little-endian length and its bytes, UTF-8). */
    private IValue strings(final Batch batch, final IoPlan.Input input)
    {
        final BatchInput in = present(batch, input);
        final long count = Shapes.elementCount(in.shape());
        if (count == 0)
        {
            throw failure("input '" + input.name() + "' holds no strings: DJL's JNI cannot make an empty List[str]");
        }
        final MemorySegment data = in.data();
        final IValue[] elements = new IValue[Math.toIntExact(count)];
        long offset = 0;
        for (int i = 0; i < elements.length; i++)
        {
            if (offset + Integer.BYTES > data.byteSize())
            {
                throw failure("input '" + input.name() + "' ends inside the length of string " + i);
            }
            final int length = data.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN),
                offset);
            offset += Integer.BYTES;
            if (length < 0 || offset + length > data.byteSize())
            {
                throw failure("input '" + input.name() + "': string " + i + " of " + length + " bytes runs past the "
                    + data.byteSize() + " bytes of the input");
            }
            final byte[] bytes = data.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
            offset += length;
            elements[i] = keep(IValue.from(new String(bytes, StandardCharsets.UTF_8)));
        }
        return keep(IValue.listFrom(elements));
    }

    private BatchInput present(final Batch batch, final IoPlan.Input input)
    {
        final BatchInput in = batch.input(input.name());
        if (in == null)
        {
            throw failure("input '" + input.name() + "' is missing from the batch");
        }
        return in;
    }

    /** What forward returned, element by element, as Triton takes it apart: a tuple's members, or the one value. */
    private IValue[] elements(final IValue result)
    {
        if (result.isTuple())
        {
            final IValue[] members = result.toIValueTuple();
            for (int i = 0; i < members.length; i++)
            {
                keep(members[i]);
            }
            for (int i = 0; i < members.length; i++)
            {
                if (!members[i].isTensor() && !isStringList(members[i]))
                {
                    throw failure("output at index " + i + " must be of type Tensor or List[str], received "
                        + members[i].getType());
                }
            }
            return members;
        }
        if (result.isTensor() || isStringList(result))
        {
            return new IValue[] {result};
        }
        throw failure("output must be of type Tensor, List[str] or Tuple containing one of these two types. It should"
            + " not be a List / Dictionary of Tensors or a Scalar (the model returned " + result.getType() + ")");
    }

    private IValue element(final IValue[] elements, final IoPlan.Output output)
    {
        if (output.index() >= elements.length)
        {
            throw failure(missingIndex(output, elements.length));
        }
        return elements[output.index()];
    }

    private static String missingIndex(final IoPlan.Output output, final int count)
    {
        return "The output " + output.name() + " in the model configuration refers to an output index which doesn't"
            + " exist. This model has " + count + " outputs";
    }

    private static boolean isStringList(final IValue value)
    {
        if (!value.isList())
        {
            return false;
        }
        final String type = value.getType();
        return type.equals("str[]") || type.equals("List[str]");
    }

    /** Checks the tensor against the configuration and copies it once into the output's memory. */
    private void writeTensor(final Batch batch, final IoPlan.Output output, final PtNDArray tensor)
    {
        final DataType produced = TorchTypes.fromDjl(tensor.getDataType());
        if (produced != output.dataType())
        {
            throw failure("configuration expects datatype " + TorchTypes.configName(output.dataType())
                + " for output '" + output.name() + "', model provides " + TorchTypes.configName(produced)
                + (produced == null ? " (torch " + tensor.getDataType() + ")" : ""));
        }
        final long[] modelShape = tensor.getShape().getShape();
        if (modelShape.length == 0)
        {
            throw failure("output '" + output.name() + "' is a scalar which is not supported.");
        }
        final long[] shape = configShape(output, modelShape);
        final MemorySegment memory = batch.allocateOutput(output.name(), shape);
        if (memory.byteSize() > 0)
        {
            MemorySegment.copy(MemorySegment.ofBuffer(tensor.toByteBuffer(true)), 0, memory, 0, memory.byteSize());
        }
    }

    private void writeStrings(final Batch batch, final IoPlan.Output output, final IValue list)
    {
        final IValue[] items = list.toIValueArray();
        final byte[][] encoded = new byte[items.length][];
        long size = 0;
        for (int i = 0; i < items.length; i++)
        {
            try (IValue item = items[i])
            {
                encoded[i] = item.toStringValue().getBytes(StandardCharsets.UTF_8);
            }
            size += Integer.BYTES + encoded[i].length;
        }
        final long[] shape = configShape(output, new long[] {items.length});
        final MemorySegment memory = batch.allocateOutput(output.name(), shape, size);
        long offset = 0;
        for (final byte[] bytes : encoded)
        {
            memory.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), offset,
                bytes.length);
            offset += Integer.BYTES;
            MemorySegment.copy(bytes, 0, memory, ValueLayout.JAVA_BYTE, offset, bytes.length);
            offset += bytes.length;
        }
    }

    private long[] configShape(final IoPlan.Output output, final long[] modelShape)
    {
        final long[] shape;
        try
        {
            shape = Shapes.configShape(modelShape, output.dims(), output.reshape(), plan.batching());
        }
        catch (final IllegalArgumentException e)
        {
            throw failure("output '" + output.name() + "' of shape " + Shapes.text(modelShape) + " does not fit its"
                + " configured reshape: " + e.getMessage());
        }
        if (!Shapes.fits(shape, output.dims(), plan.batching()))
        {
            final String dims = Shapes.text(output.dims()) + (plan.batching() ? " after the batch dimension" : "");
            if (output.state() != null)
            {
                throw failure("state output '" + output.name() + "' of implicit state '" + output.state() + "' has"
                    + " shape " + Shapes.text(shape) + ", but the state's dims are " + dims + ": a state keeps its"
                    + " configured shape from request to request, except in dimensions given as -1");
            }
            throw failure("output '" + output.name() + "' has shape " + Shapes.text(shape) + ", but the configuration's"
                + " dims are " + dims);
        }
        return shape;
    }

    private IValue keep(final IValue value)
    {
        values.add(value);
        return value;
    }

    private IllegalStateException failure(final String message)
    {
        return new IllegalStateException("model '" + plan.model() + "': " + message);
    }

    /** @return the module this engine runs, for tests */
    PtSymbolBlock module()
    {
        return module;
    }

    /**
     * False: libtorch keeps the graph executor's optimization and the grad mode per thread, and this engine sets both
     * on the thread that runs a batch without restoring them (on its instance's thread nothing else runs); a caller's
     * thread would be left with them changed. On a GPU the current CUDA device is per thread too.
     */
    @Override
    public boolean runsOnAnyThread()
    {
        return false;
    }

    @Override
    public void close()
    {
        try
        {
            manager.close();
        }
        finally
        {
            if (owned != null)
            {
                owned.close();
            }
        }
    }
}
