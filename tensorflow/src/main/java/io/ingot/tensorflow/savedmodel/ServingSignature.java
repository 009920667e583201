package io.ingot.tensorflow.savedmodel;

import java.util.List;

/**
 * The signature a SavedModel is served with: the one Triton's TensorFlow backend picks ({@code TF_SIGNATURE_DEF},
 * else {@code serving_default}, else the first key that is not an init or train op) in the MetaGraphDef of the
 * tag it loads. Inputs and outputs are sorted by name, so that auto-complete fills them in a stable order.
 *
 * @param tag     the tag of the MetaGraphDef it belongs to
 * @param key     the signature key
 * @param inputs  its inputs
 * @param outputs its outputs
 */
public record ServingSignature(String tag, String key, List<SignatureTensor> inputs, List<SignatureTensor> outputs)
{
    /** Copies the lists. */
    public ServingSignature
    {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
    }

    /**
     * @param name a signature key of an input
     * @return that input, or {@code null}
     */
    public SignatureTensor input(final String name)
    {
        return find(inputs, name);
    }

    /**
     * @param name a signature key of an output
     * @return that output, or {@code null}
     */
    public SignatureTensor output(final String name)
    {
        return find(outputs, name);
    }

    /**
     * Triton's {@code ModelSupportsBatch}: every tensor either has no shape or a first dimension of {@code -1}.
     *
     * @return whether the signature can take a batch dimension
     */
    public boolean supportsBatching()
    {
        for (final List<SignatureTensor> tensors : List.of(inputs, outputs))
        {
            for (final SignatureTensor tensor : tensors)
            {
                if (tensor.rank() != 0 && tensor.dim(0) != -1)
                {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * @param tensors inputs or outputs
     * @return their names, comma-separated, as Triton lists allowed tensors
     */
    public static String names(final List<SignatureTensor> tensors)
    {
        final StringBuilder text = new StringBuilder();
        for (final SignatureTensor tensor : tensors)
        {
            text.append(text.isEmpty() ? "" : ", ").append(tensor.name());
        }
        return text.toString();
    }

    private static SignatureTensor find(final List<SignatureTensor> tensors, final String name)
    {
        for (final SignatureTensor tensor : tensors)
        {
            if (tensor.name().equals(name))
            {
                return tensor;
            }
        }
        return null;
    }
}
