package io.ingot.tensorflow;

import io.ingot.backend.SequenceBatchTensors;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;
import io.ingot.tensor.DataType;
import io.ingot.tensorflow.savedmodel.DataTypes;
import io.ingot.tensorflow.savedmodel.ServingSignature;
import io.ingot.tensorflow.savedmodel.SignatureTensor;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks a model configuration against the SavedModel's serving signature with the rules and messages of Triton's
 * TensorFlow backend ({@code savedmodel::ValidateTRITONTFModel}, {@code CompareDims}):
 * <ul>
 *   <li>every configured input and output is a signature tensor ("unexpected inference input 'x', allowed inputs
 *       are: a, b");</li>
 *   <li>the configuration feeds every signature input ("configuration expects N inputs, model provides M");</li>
 *   <li>with {@code max_batch_size > 0} every tensor's first dimension is {@code -1} and the rest match the
 *       configured {@code dims} (or {@code reshape}); inputs accept any size where the signature has {@code -1},
 *       outputs must match exactly; a tensor the signature gives no shape takes the configuration's;</li>
 *   <li>element types agree ("configuration expects datatype TYPE_FP32 for input 'x', model provides TYPE_INT32");</li>
 *   <li>each sequence control is a signature input of shape {@code [1]} and of the type the sequence batcher writes
 *       (Triton's {@code ValidateSequenceControl}), and each implicit state's input and output are signature tensors
 *       of the state's type and dims (Ingot's addition: Triton's TensorFlow backend had no implicit state).</li>
 * </ul>
 * Unlike Triton, which stops at the first, every disagreement is reported. Stateless.
 */
final class SignatureCheck
{
    private SignatureCheck()
    {
    }

    /**
     * @param config    the configuration (normalized)
     * @param signature the serving signature
     * @return one sentence per disagreement; empty when they agree
     */
    static List<String> problems(final ModelConfig config, final ServingSignature signature)
    {
        final String model = config.getName();
        final boolean batching = config.getMaxBatchSize() > 0;
        final List<String> problems = new ArrayList<>();
        final int expected = config.getInputCount() + config.getBatchInputCount()
            + SequenceBatchTensors.controls(config).size() + SequenceBatchTensors.states(config).size();
        for (final ModelInput input : config.getInputList())
        {
            final SignatureTensor tensor = signature.input(input.getName());
            if (tensor == null)
            {
                problems.add("unexpected inference input '" + input.getName() + "', allowed inputs are: "
                    + ServingSignature.names(signature.inputs()));
                continue;
            }
            final List<Long> dims = input.hasReshape() ? input.getReshape().getShapeList() : input.getDimsList();
            if (tensor.rank() != 0)
            {
                if (input.getAllowRaggedBatch())
                {
                    if (tensor.rank() != 1 || tensor.dim(0) != -1)
                    {
                        problems.add("unable to load model '" + model + "', configuration expects model provides"
                            + " input with shape [-1]  for ragged input '" + input.getName() + "', model provides "
                            + tensor.shapeText());
                    }
                }
                else
                {
                    addIfAny(problems, dimsProblem(model, tensor, dims, batching, false));
                }
            }
            compareType(problems, model, "input", input.getName(), input.getDataTypeValue(), tensor);
        }
        checkControls(problems, config, signature);
        checkStates(problems, config, signature);
        if (problems.isEmpty() && signature.inputs().size() != expected)
        {
            problems.add("unable to load model '" + model + "', configuration expects " + expected + " inputs, model"
                + " provides " + signature.inputs().size() + " (the signature's inputs are "
                + ServingSignature.names(signature.inputs()) + ")");
        }
        for (final ModelOutput output : config.getOutputList())
        {
            final SignatureTensor tensor = signature.output(output.getName());
            if (tensor == null)
            {
                problems.add("unexpected inference output '" + output.getName() + "', allowed outputs are: "
                    + ServingSignature.names(signature.outputs()));
                continue;
            }
            final List<Long> dims = output.hasReshape() ? output.getReshape().getShapeList() : output.getDimsList();
            if (tensor.rank() != 0)
            {
                addIfAny(problems, dimsProblem(model, tensor, dims, batching, true));
            }
            compareType(problems, model, "output", output.getName(), output.getDataTypeValue(), tensor);
        }
        return problems;
    }

    /**
     * Triton's {@code savedmodel::ValidateSequenceControl}: each control input is a signature input of shape
     * {@code [1]} exactly (after {@code -1} for the batch) and of the type the sequence batcher writes.
     */
    private static void checkControls(final List<String> problems, final ModelConfig config,
        final ServingSignature signature)
    {
        final String model = config.getName();
        for (final SequenceBatchTensors.Control control : SequenceBatchTensors.controls(config))
        {
            final SignatureTensor tensor = signature.input(control.name());
            if (tensor == null)
            {
                problems.add("configuration specified sequence control '" + control.name() + "', but model does not"
                    + " provide that input (the signature's inputs are " + ServingSignature.names(signature.inputs())
                    + ")");
                continue;
            }
            final String dims = dimsProblem(model, tensor, List.of(1L), config.getMaxBatchSize() > 0, true);
            if (dims != null)
            {
                problems.add("unable to load model '" + model + "', sequence control '" + control.name() + "': "
                    + dims);
            }
            final DataType provided = DataTypes.toIngot(tensor.dataType());
            if (provided != control.dataType())
            {
                problems.add("unable to load model '" + model + "', sequence control '" + control.name() + "': the"
                    + " model expects TYPE_" + provided + " but the model configuration specifies data-type "
                    + configName(control.dataType().configNumber()) + " (" + control.kind() + ")");
            }
        }
    }

    /**
     * Ingot's checks of {@code sequence_batching.state} (Triton's TensorFlow backend had no implicit state): the
     * state's {@code input_name} is a signature input and its {@code output_name} a signature output, both of the
     * state's type and of shapes that admit its {@code dims} ({@code -1} in the signature takes any size).
     */
    private static void checkStates(final List<String> problems, final ModelConfig config,
        final ServingSignature signature)
    {
        final String model = config.getName();
        final boolean batching = config.getMaxBatchSize() > 0;
        for (final SequenceBatchTensors.State state : SequenceBatchTensors.states(config))
        {
            if (state.dataType() == DataType.BYTES)
            {
                problems.add("state '" + state.inputName() + "' of model '" + model + "' is TYPE_STRING: Ingot"
                    + " carries implicit state as fixed-size rows; give the state a numeric or boolean data_type");
                continue;
            }
            final SignatureTensor input = signature.input(state.inputName());
            if (input == null)
            {
                problems.add("unexpected inference input '" + state.inputName() + "', allowed inputs are: "
                    + ServingSignature.names(signature.inputs()) + " (it is the input_name of a sequence_batching"
                    + " state)");
            }
            else
            {
                addIfAny(problems, dimsProblem(model, input, state.dims(), batching, false));
                compareType(problems, model, "state input", state.inputName(), state.dataType().configNumber(),
                    input);
            }
            final SignatureTensor output = signature.output(state.outputName());
            if (output == null)
            {
                problems.add("unexpected inference output '" + state.outputName() + "', allowed outputs are: "
                    + ServingSignature.names(signature.outputs()) + " (it is the output_name of a sequence_batching"
                    + " state)");
            }
            else
            {
                addIfAny(problems, dimsProblem(model, output, state.dims(), batching, false));
                compareType(problems, model, "state output", state.outputName(), state.dataType().configNumber(),
                    output);
            }
        }
    }

    private static void addIfAny(final List<String> problems, final String problem)
    {
        if (problem != null)
        {
            problems.add(problem);
        }
    }

    private static void compareType(final List<String> problems, final String model, final String role,
        final String name, final int configType, final SignatureTensor tensor)
    {
        final DataType configured = DataType.fromConfigNumber(configType);
        final DataType provided = DataTypes.toIngot(tensor.dataType());
        if (configured != provided)
        {
            problems.add("unable to load model '" + model + "', configuration expects datatype "
                + configName(configType) + " for " + role + " '" + name + "', model provides "
                + configName(provided.configNumber()));
        }
    }

    private static String configName(final int configType)
    {
        final io.ingot.config.proto.DataType type = io.ingot.config.proto.DataType.forNumber(configType);
        return type == null ? "DataType(" + configType + ")" : type.name();
    }

    /** Triton's {@code CompareDims}: its message, or {@code null} when the shapes agree. */
    private static String dimsProblem(final String model, final SignatureTensor tensor, final List<Long> dims,
        final boolean batching, final boolean exact)
    {
        final String prefix = "model '" + model + "', tensor '" + tensor.name() + "': ";
        final List<Long> full = new ArrayList<>();
        if (batching)
        {
            if (tensor.rank() == 0 || tensor.dim(0) != -1)
            {
                return prefix + "for the model to support batching the shape should have at least 1 dimension and"
                    + " the first dimension must be -1; but shape expected by the model is " + tensor.shapeText();
            }
            full.add(-1L);
        }
        full.addAll(dims);
        boolean matches = tensor.rank() == full.size();
        for (int i = 0; matches && i < full.size(); i++)
        {
            final long modelDim = tensor.dim(i);
            if (exact || modelDim != -1)
            {
                matches = modelDim == full.get(i);
            }
        }
        if (!matches)
        {
            return prefix + "the model expects " + tensor.rank() + " dimensions (shape " + tensor.shapeText()
                + ") but the model configuration specifies " + full.size() + " dimensions ("
                + (batching ? "an initial batch dimension because max_batch_size > 0 followed by the explicit tensor"
                + " shape, making complete shape " : "shape ") + text(full) + ")";
        }
        return null;
    }

    private static String text(final List<Long> dims)
    {
        final StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < dims.size(); i++)
        {
            text.append(i == 0 ? "" : ",").append(dims.get(i));
        }
        return text.append(']').toString();
    }
}
