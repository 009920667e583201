package io.ingot.tensorflow;

import io.ingot.config.proto.BatchInput;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;
import io.ingot.config.proto.ModelSequenceBatching;
import io.ingot.config.proto.ModelTensorReshape;
import io.ingot.tensorflow.savedmodel.DataTypes;
import io.ingot.tensorflow.savedmodel.ServingSignature;
import io.ingot.tensorflow.savedmodel.SignatureTensor;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * Completes a configuration from a SavedModel's serving signature as Triton's TensorFlow backend does
 * ({@code AutoCompleteHelper::Fix}):
 * <ol>
 *   <li><b>Batching.</b> The signature supports batching when every tensor has no shape or a first dimension of
 *       {@code -1}. If it does not and {@code max_batch_size > 0}: "unable to autofill for 'm', configuration
 *       specified max-batch N but model signature does not support batching". If it does and
 *       {@code max_batch_size} is 0, the configured tensors hint whether the model batches (dims one shorter than the
 *       signature's rank: yes; as long: no; contradicting hints are an error); with no hint against it,
 *       {@code max_batch_size} becomes {@value #DEFAULT_MAX_BATCH_SIZE} (Triton's {@code default-max-batch-size}).
 *       With {@code max_batch_size > 1} and no scheduler, {@code dynamic_batching {}} is added.</li>
 *   <li><b>Inputs.</b> Every configured input that the signature has gets a missing {@code data_type} and empty
 *       {@code dims} filled in; every signature input that is configured nowhere (not an input, not a
 *       {@code batch_input} target, not a sequence control, not a state's {@code input_name}) is appended.</li>
 *   <li><b>Outputs.</b> With none configured, every signature output but the states' {@code output_name}s is added;
 *       otherwise the configured ones are filled in and the rest of the signature's outputs stay unserved.</li>
 * </ol>
 * Dims leave out the batch dimension when the model batches; a tensor with nothing left gets {@code dims: [1]} and
 * an empty {@code reshape}; a tensor of rank 0 with no configured dims is an error. Stateless.
 */
final class SavedModelAutoComplete
{
    /** Triton's {@code --backend-config=tensorflow,default-max-batch-size} default. */
    static final int DEFAULT_MAX_BATCH_SIZE = 4;

    private SavedModelAutoComplete()
    {
    }

    /**
     * @param config    the configuration so far, its name set
     * @param signature the serving signature
     * @return the completed configuration
     * @throws IllegalArgumentException with Triton's message when the configuration cannot be completed
     */
    static ModelConfig complete(final ModelConfig config, final ServingSignature signature)
    {
        final ModelConfig.Builder completed = config.toBuilder();
        final boolean batching = fixBatching(completed, signature);
        fixInputs(completed, signature, batching);
        fixOutputs(completed, signature, batching);
        return completed.build();
    }

    private static boolean fixBatching(final ModelConfig.Builder config, final ServingSignature signature)
    {
        final String model = config.getName();
        final boolean signatureBatches = signature.supportsBatching();
        int maxBatchSize = config.getMaxBatchSize();
        if (!signatureBatches && maxBatchSize > 0)
        {
            throw new IllegalArgumentException("unable to autofill for '" + model + "', configuration specified"
                + " max-batch " + maxBatchSize + " but model signature does not support batching");
        }
        boolean hint = false;
        if (signatureBatches)
        {
            hint = config.getInputCount() == 0 && config.getOutputCount() == 0 || configHint(config, signature);
        }
        final boolean batching = hint && DEFAULT_MAX_BATCH_SIZE > 0;
        if (maxBatchSize == 0)
        {
            maxBatchSize = batching ? DEFAULT_MAX_BATCH_SIZE : 0;
            config.setMaxBatchSize(maxBatchSize);
            if (batching)
            {
                System.getLogger(SavedModelAutoComplete.class.getName()).log(System.Logger.Level.WARNING,
                    "autofilled max_batch_size to {0} for model ''{1}'' since batching is supported but no"
                    + " max_batch_size is specified in model configuration. Must specify max_batch_size to utilize"
                    + " autofill with a larger max batch size", maxBatchSize, model);
            }
        }
        if (maxBatchSize > 1 && !config.hasDynamicBatching() && !config.hasSequenceBatching())
        {
            config.setDynamicBatching(ModelDynamicBatching.getDefaultInstance());
        }
        return batching;
    }

    /** Triton's explicit batch hint: what the configured dims say about a batch dimension. */
    private static boolean configHint(final ModelConfig.Builder config, final ServingSignature signature)
    {
        Boolean explicit = null;
        boolean hint = false;
        final List<Named> configured = new ArrayList<>();
        for (final ModelInput input : config.getInputList())
        {
            if (input.getAllowRaggedBatch())
            {
                return true;
            }
            configured.add(new Named(input.getName(), input.hasReshape() ? input.getReshape().getShapeCount()
                : input.getDimsCount(), signature.input(input.getName())));
        }
        for (final ModelOutput output : config.getOutputList())
        {
            configured.add(new Named(output.getName(), output.hasReshape() ? output.getReshape().getShapeCount()
                : output.getDimsCount(), signature.output(output.getName())));
        }
        for (final Named named : configured)
        {
            if (named.tensor == null || named.tensor.rank() == 0)
            {
                continue;
            }
            if (named.dims == 0)
            {
                hint = explicit == null || hint;
                continue;
            }
            final boolean batchDimension = named.dims == named.tensor.rank() - 1;
            if (explicit != null && explicit != batchDimension)
            {
                throw new IllegalArgumentException("unable to autofill for '" + config.getName() + "', model tensor"
                    + " configurations are contradicting each other in terms of whether batching is supported");
            }
            explicit = batchDimension;
            hint = batchDimension;
        }
        return hint;
    }

    /** A configured tensor: its name, how many dims it lists, and the signature tensor of that name. */
    private record Named(String name, int dims, SignatureTensor tensor)
    {
    }

    private static void fixInputs(final ModelConfig.Builder config, final ServingSignature signature,
        final boolean batching)
    {
        final Set<String> configured = new HashSet<>();
        for (int i = 0; i < config.getInputCount(); i++)
        {
            final ModelInput input = config.getInput(i);
            configured.add(input.getName());
            final SignatureTensor tensor = signature.input(input.getName());
            if (tensor != null)
            {
                config.setInput(i, fill(config.getName(), input.toBuilder(), tensor, batching));
            }
        }
        for (final BatchInput batchInput : config.getBatchInputList())
        {
            configured.addAll(batchInput.getTargetNameList());
        }
        final ModelSequenceBatching sequence = config.getSequenceBatching();
        for (final ModelSequenceBatching.ControlInput control : sequence.getControlInputList())
        {
            configured.add(control.getName());
        }
        for (final ModelSequenceBatching.State state : sequence.getStateList())
        {
            configured.add(state.getInputName());
        }
        for (final SignatureTensor tensor : signature.inputs())
        {
            if (!configured.contains(tensor.name()))
            {
                config.addInput(fill(config.getName(), ModelInput.newBuilder().setName(tensor.name()), tensor,
                    batching));
            }
        }
    }

    private static ModelInput.Builder fill(final String model, final ModelInput.Builder input,
        final SignatureTensor tensor, final boolean batching)
    {
        if (input.getDataTypeValue() == 0)
        {
            input.setDataTypeValue(DataTypes.toIngot(tensor.dataType()).configNumber());
        }
        if (input.getDimsCount() == 0)
        {
            dims(model, tensor, batching, input::addDims,
                () -> input.setReshape(ModelTensorReshape.getDefaultInstance()));
        }
        return input;
    }

    private static void fixOutputs(final ModelConfig.Builder config, final ServingSignature signature,
        final boolean batching)
    {
        if (config.getOutputCount() == 0)
        {
            final Set<String> states = new HashSet<>();
            config.getSequenceBatching().getStateList().forEach(state -> states.add(state.getOutputName()));
            for (final SignatureTensor tensor : signature.outputs())
            {
                if (states.contains(tensor.name()))
                {
                    continue;
                }
                if (tensor.rank() == 0)
                {
                    throw new IllegalArgumentException("Unable to autofill for '" + config.getName() + "': the rank"
                        + " of model tensor '" + tensor.name() + "' is 0 which is not supported");
                }
                final ModelOutput.Builder output = ModelOutput.newBuilder().setName(tensor.name())
                    .setDataTypeValue(DataTypes.toIngot(tensor.dataType()).configNumber());
                dims(config.getName(), tensor, batching, output::addDims,
                    () -> output.setReshape(ModelTensorReshape.getDefaultInstance()));
                config.addOutput(output);
            }
            return;
        }
        for (int i = 0; i < config.getOutputCount(); i++)
        {
            final ModelOutput output = config.getOutput(i);
            final SignatureTensor tensor = signature.output(output.getName());
            if (tensor == null)
            {
                continue;
            }
            final ModelOutput.Builder filled = output.toBuilder();
            if (filled.getDataTypeValue() == 0)
            {
                filled.setDataTypeValue(DataTypes.toIngot(tensor.dataType()).configNumber());
            }
            if (filled.getDimsCount() == 0)
            {
                dims(config.getName(), tensor, batching, filled::addDims,
                    () -> filled.setReshape(ModelTensorReshape.getDefaultInstance()));
            }
            config.setOutput(i, filled);
        }
    }

    private static void dims(final String model, final SignatureTensor tensor, final boolean batching,
        final LongConsumer add, final Runnable emptyReshape)
    {
        if (tensor.rank() == 0)
        {
            throw new IllegalArgumentException("Unable to autofill for '" + model + "': the rank of model tensor '"
                + tensor.name() + "' is 0 and dimensions are not defined");
        }
        final int first = batching ? 1 : 0;
        for (int i = first; i < tensor.rank(); i++)
        {
            add.accept(tensor.dim(i));
        }
        if (tensor.rank() <= first)
        {
            add.accept(1);
            emptyReshape.run();
        }
    }
}
