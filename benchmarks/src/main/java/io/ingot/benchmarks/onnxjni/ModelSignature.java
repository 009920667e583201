package io.ingot.benchmarks.onnxjni;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
     * @throws OrtException             when ONNX Runtime cannot describe the model
     * @throws IllegalArgumentException when an input or output is not a tensor (a sequence or a map), which Ingot
     *                                  cannot serve
     */
    static ModelSignature of(final OrtSession session) throws OrtException
    {
        return new ModelSignature(read(session.getInputInfo(), "input"), read(session.getOutputInfo(), "output"));
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

    private static List<TensorSignature> read(final Map<String, NodeInfo> infos, final String role)
    {
        final List<TensorSignature> tensors = new ArrayList<>(infos.size());
        for (final NodeInfo node : infos.values())
        {
            if (!(node.getInfo() instanceof TensorInfo info))
            {
                throw new IllegalArgumentException(role + " '" + node.getName() + "' is a " + node.getInfo()
                    + ", not a tensor; only tensor inputs and outputs can be served");
            }
            final long[] dims = info.getShape().clone();
            final String[] names = info.getDimensionNames().clone();
            for (int i = 0; i < names.length; i++)
            {
                names[i] = names[i] == null ? "" : names[i];
            }
            tensors.add(new TensorSignature(node.getName(), OnnxTypes.fromOnnx(info.onnxType), info.onnxType.name(),
                dims, names));
        }
        return tensors;
    }
}
