package io.ingot.onnx;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;
import io.ingot.config.proto.ModelTensorReshape;

/**
 * Completes a configuration from the model's own signature the way Triton's ONNX Runtime backend does
 * ({@code AutoCompleteConfig}):
 * <ul>
 *   <li>when the configuration lists both inputs and outputs, nothing is completed (the load then checks them
 *       against the model);</li>
 *   <li>the model batches when every input and output has a dynamic first dimension; then a
 *       {@code max_batch_size} of 0 becomes {@value #DEFAULT_MAX_BATCH_SIZE}, and a model that does not batch
 *       while {@code max_batch_size > 0} is an error;</li>
 *   <li>with {@code max_batch_size > 1} and no scheduler, {@code dynamic_batching {}} is added;</li>
 *   <li>missing inputs (or outputs) are all taken from the model, in model order, with the batch dimension
 *       dropped when the model batches; a scalar becomes {@code dims: [1]} (with an empty {@code reshape} when the
 *       model batches).</li>
 * </ul>
 */
final class OnnxAutoComplete
{
    /** Triton's {@code --backend-config=onnxruntime,default-max-batch-size} default. */
    static final int DEFAULT_MAX_BATCH_SIZE = 4;

    private OnnxAutoComplete()
    {
    }

    /**
     * @param config    the configuration so far
     * @param signature the model's inputs and outputs
     * @return the completed configuration, or {@code config} itself when it already lists inputs and outputs
     * @throws IllegalArgumentException when {@code max_batch_size > 0} but the model cannot batch, or when a tensor
     *                                  has an element type without a {@code TYPE_} equivalent
     */
    static ModelConfig complete(final ModelConfig config, final ModelSignature signature)
    {
        final boolean needInputs = config.getInputCount() == 0 && config.getBatchInputCount() == 0;
        final boolean needOutputs = config.getOutputCount() == 0;
        if (!needInputs && !needOutputs)
        {
            return config;
        }
        final ModelConfig.Builder completed = config.toBuilder();
        if (signature.supportsBatching())
        {
            if (completed.getMaxBatchSize() == 0)
            {
                completed.setMaxBatchSize(DEFAULT_MAX_BATCH_SIZE);
            }
            if (completed.getMaxBatchSize() > 1 && !completed.hasDynamicBatching()
                && !completed.hasSequenceBatching() && !completed.hasEnsembleScheduling())
            {
                completed.setDynamicBatching(ModelDynamicBatching.getDefaultInstance());
            }
        }
        else if (completed.getMaxBatchSize() != 0)
        {
            throw new IllegalArgumentException("autofill failed for model '" + config.getName() + "': model does"
                + " not support batching while non-zero max_batch_size is specified (max_batch_size is "
                + completed.getMaxBatchSize() + "; not every input and output has a dynamic first dimension: inputs "
                + describe(signature.inputs()) + ", outputs " + describe(signature.outputs()) + ")");
        }
        final boolean batching = completed.getMaxBatchSize() > 0;
        if (needInputs)
        {
            for (final TensorSignature tensor : signature.inputs())
            {
                final ModelInput.Builder input = ModelInput.newBuilder()
                    .setName(tensor.name())
                    .setDataType(configType(config, tensor));
                addDims(tensor, batching, input::addDims, () -> input.setReshape(ModelTensorReshape.newBuilder()));
                completed.addInput(input);
            }
        }
        if (needOutputs)
        {
            for (final TensorSignature tensor : signature.outputs())
            {
                final ModelOutput.Builder output = ModelOutput.newBuilder()
                    .setName(tensor.name())
                    .setDataType(configType(config, tensor));
                addDims(tensor, batching, output::addDims, () -> output.setReshape(ModelTensorReshape.newBuilder()));
                completed.addOutput(output);
            }
        }
        return completed.build();
    }

    private static void addDims(final TensorSignature tensor, final boolean batching,
        final java.util.function.LongConsumer dims, final Runnable emptyReshape)
    {
        final long[] modelDims = tensor.dims();
        final int first = batching ? 1 : 0;
        for (int i = first; i < modelDims.length; i++)
        {
            dims.accept(modelDims[i] < 0 ? -1 : modelDims[i]);
        }
        if (modelDims.length <= first)
        {
            dims.accept(1);
            if (batching)
            {
                emptyReshape.run();
            }
        }
    }

    private static io.ingot.config.proto.DataType configType(final ModelConfig config, final TensorSignature tensor)
    {
        if (tensor.dataType() == null)
        {
            throw new IllegalArgumentException("autofill failed for model '" + config.getName() + "': tensor '"
                + tensor.name() + "' has element type " + tensor.onnxType() + ", which has no TYPE_ equivalent");
        }
        return OnnxTypes.toConfig(tensor.dataType());
    }

    private static String describe(final java.util.List<TensorSignature> tensors)
    {
        final StringBuilder text = new StringBuilder();
        for (final TensorSignature tensor : tensors)
        {
            text.append(text.isEmpty() ? "" : ", ").append(tensor.name()).append(tensor.shapeText());
        }
        return text.toString();
    }
}
