package io.ingot.onnx;

import io.ingot.onnx.capi.OrtSession;
import io.ingot.onnx.capi.OrtTensorInfo;
import io.ingot.onnx.capi.OrtTypes;

import java.util.ArrayList;
import java.util.List;

/**
 * The inputs and outputs an ONNX model declares, read from a loaded session.
 *
 * @param inputs  graph inputs, in model order
 * @param outputs graph outputs, in model order
 */
record ModelSignature(List<TensorSignature> inputs, List<TensorSignature> outputs)
{
    /** Freezes the lists. */
    ModelSignature
    {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
    }

    /**
     * Reads the signature of a session.
     *
     * @param session a loaded session
     * @return its inputs and outputs
     * @throws IllegalArgumentException when an input or output is not a tensor (a sequence or a map), which Ingot
     *                                  cannot serve
     */
    static ModelSignature of(final OrtSession session)
    {
        return new ModelSignature(read(session.inputs(), "input"), read(session.outputs(), "output"));
    }

    /**
     * @param name an input name
     * @return the input, or {@code null}
     */
    TensorSignature input(final String name)
    {
        return find(inputs, name);
    }

    /**
     * @param name an output name
     * @return the output, or {@code null}
     */
    TensorSignature output(final String name)
    {
        return find(outputs, name);
    }

    /** @return true when every input and output has a dynamic first dimension: Triton's test for batching. */
    boolean supportsBatching()
    {
        for (final TensorSignature tensor : inputs)
        {
            if (!tensor.hasDynamicFirstDim())
            {
                return false;
            }
        }
        for (final TensorSignature tensor : outputs)
        {
            if (!tensor.hasDynamicFirstDim())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @param tensors tensors
     * @return their names, comma-separated, for messages
     */
    static String names(final List<TensorSignature> tensors)
    {
        final List<String> names = new ArrayList<>(tensors.size());
        for (final TensorSignature tensor : tensors)
        {
            names.add("'" + tensor.name() + "'");
        }
        return String.join(", ", names);
    }

    private static TensorSignature find(final List<TensorSignature> tensors, final String name)
    {
        for (final TensorSignature tensor : tensors)
        {
            if (tensor.name().equals(name))
            {
                return tensor;
            }
        }
        return null;
    }

    private static List<TensorSignature> read(final List<OrtTensorInfo> infos, final String role)
    {
        final List<TensorSignature> tensors = new ArrayList<>(infos.size());
        for (final OrtTensorInfo info : infos)
        {
            if (!info.isTensor())
            {
                throw new IllegalArgumentException(role + " '" + info.name() + "' is not a tensor (ONNXType "
                    + info.onnxType() + ": a sequence, map or optional); only tensor inputs and outputs can be served");
            }
            tensors.add(new TensorSignature(info.name(), OnnxTypes.fromOnnx(info.elementType()),
                OrtTypes.elementTypeName(info.elementType()), info.dims().clone(), info.dimNames().clone()));
        }
        return tensors;
    }
}
