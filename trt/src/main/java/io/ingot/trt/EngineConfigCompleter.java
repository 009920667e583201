package io.ingot.trt;

import io.ingot.tensor.DataType;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;
import io.ingot.trt.shim.EngineSignature;
import io.ingot.trt.shim.EngineTensor;

/**
 * Completes a {@code tensorrt_plan} configuration from its engine, as Triton's TensorRT backend does:
 * <ul>
 *   <li>{@code max_batch_size}: when the configuration lists no tensors and sets no {@code max_batch_size}, and
 *       every engine I/O tensor has a dynamic first dimension, the model batches with
 *       {@code min(}{@value #DEFAULT_MAX_BATCH_SIZE}{@code , largest batch of any profile)} (Triton's
 *       {@code default-max-batch-size}). A configuration that lists tensors and leaves {@code max_batch_size}
 *       at 0 keeps it: it gives full shapes;</li>
 *   <li>inputs and outputs the configuration does not list are added with the engine's name, data type and
 *       dims (without the batch dimension when the model batches); listed ones are left as they are and checked
 *       at load;</li>
 *   <li>{@code dynamic_batching {}} is added when {@code max_batch_size > 1} and no scheduler is configured.</li>
 * </ul>
 */
public final class EngineConfigCompleter
{
    /** Triton's {@code --backend-config=tensorrt,default-max-batch-size} default. */
    public static final int DEFAULT_MAX_BATCH_SIZE = 4;

    private EngineConfigCompleter()
    {
    }

    /**
     * @param label     the model's label for messages
     * @param config    the configuration so far
     * @param signature the engine's signature
     * @return the completed configuration
     * @throws IllegalArgumentException when a missing tensor has a type Triton cannot serve
     */
    public static ModelConfig complete(final String label, final ModelConfig config, final EngineSignature signature)
    {
        final ModelConfig.Builder builder = config.toBuilder();
        int maxBatchSize = config.getMaxBatchSize();
        if (maxBatchSize == 0 && config.getInputCount() == 0 && config.getOutputCount() == 0
            && batchable(signature))
        {
            long engineMax = 0;
            for (int p = 0; p < signature.profiles().size(); p++)
            {
                engineMax = Math.max(engineMax, signature.maxBatch(p));
            }
            maxBatchSize = (int) Math.min(DEFAULT_MAX_BATCH_SIZE, engineMax);
            builder.setMaxBatchSize(maxBatchSize);
        }
        final int offset = maxBatchSize > 0 ? 1 : 0;
        for (final EngineTensor tensor : signature.tensors())
        {
            final boolean listed = tensor.isInput()
                ? config.getInputList().stream().anyMatch(input -> input.getName().equals(tensor.name()))
                : config.getOutputList().stream().anyMatch(output -> output.getName().equals(tensor.name()));
            if (listed)
            {
                continue;
            }
            final DataType type = tensor.dataType().ingotType();
            if (type == null)
            {
                throw new IllegalArgumentException(label + ": cannot complete config.pbtxt: engine "
                    + (tensor.isInput() ? "input" : "output") + " '" + tensor.name() + "' has TensorRT type "
                    + tensor.dataType().trtName() + ", which has no Triton data type");
            }
            if (tensor.rank() < offset)
            {
                throw new IllegalArgumentException(label + ": cannot complete config.pbtxt: engine tensor '"
                    + tensor.name() + "' is a scalar but max_batch_size " + maxBatchSize + " needs a batch dimension");
            }
            final io.ingot.config.proto.DataType protoType = io.ingot.config.proto.DataType.forNumber(
                type.configNumber());
            final long[] shape = tensor.shape();
            if (tensor.isInput())
            {
                final ModelInput.Builder input = ModelInput.newBuilder().setName(tensor.name()).setDataType(protoType);
                for (int i = offset; i < shape.length; i++)
                {
                    input.addDims(shape[i]);
                }
                builder.addInput(input);
            }
            else
            {
                final ModelOutput.Builder output = ModelOutput.newBuilder().setName(tensor.name())
                    .setDataType(protoType);
                for (int i = offset; i < shape.length; i++)
                {
                    output.addDims(shape[i]);
                }
                builder.addOutput(output);
            }
        }
        if (maxBatchSize > 1
            && config.getSchedulingChoiceCase() == ModelConfig.SchedulingChoiceCase.SCHEDULINGCHOICE_NOT_SET)
        {
            builder.setDynamicBatching(ModelDynamicBatching.getDefaultInstance());
        }
        return builder.build();
    }

    private static boolean batchable(final EngineSignature signature)
    {
        for (final EngineTensor tensor : signature.tensors())
        {
            if (tensor.rank() == 0 || tensor.dim(0) != -1 || tensor.shapeTensor())
            {
                return false;
            }
        }
        return !signature.tensors().isEmpty();
    }
}
