package io.ingot.onnx;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;
import io.ingot.config.proto.ModelSequenceBatching;
import io.ingot.tensor.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * Checks a model configuration against what the ONNX model declares, with the checks, the order and the messages of
 * Triton's ONNX Runtime backend (triton-inference-server/onnxruntime_backend {@code src/onnxruntime.cc}
 * {@code ModelInstanceState::ValidateInputs}/{@code ValidateOutputs}, and {@code CompareDimsSupported} in
 * {@code src/onnxruntime_utils.cc}):
 * <ol>
 *   <li>the model has as many inputs as the configuration expects (its non-optional inputs, batch inputs,
 *       sequence controls and states);</li>
 *   <li>per configured input: no optional input in a batching model, the name exists, the element type matches,
 *       a ragged input is {@code [-1]} in the model, and the dims (or {@code reshape}) match, where a dimension the
 *       model leaves dynamic accepts any configured size; with {@code max_batch_size > 0} the model's first
 *       dimension must be {@code -1};</li>
 *   <li>per configured output the same, except that dims must match exactly ({@code -1} only where the model's is
 *       dynamic).</li>
 * </ol>
 * Triton stops at the first disagreement; this reports every one, Triton's first, each in Triton's words with
 * Ingot's detail after them where it helps.
 */
final class SignatureValidator
{
    private SignatureValidator()
    {
    }

    /**
     * @param config    the model's configuration
     * @param signature what the model file declares
     * @return one sentence per disagreement, in Triton's order; empty when they agree
     */
    static List<String> check(final ModelConfig config, final ModelSignature signature)
    {
        final List<String> problems = new ArrayList<>();
        final String model = config.getName();
        final int expected = expectedInputCount(config);
        if (signature.inputs().size() != expected)
        {
            problems.add("unable to load model '" + model + "', configuration expects " + expected + " inputs, model"
                + " provides " + signature.inputs().size() + unconfigured(config, signature));
        }
        final int maxBatchSize = config.getMaxBatchSize();
        for (final ModelInput input : config.getInputList())
        {
            final String name = input.getName();
            if (input.getOptional() && maxBatchSize != 0)
            {
                problems.add("unable to load model '" + model + "', optional input '" + name + "' is not supported"
                    + " for models that support batching");
                continue;
            }
            final TensorSignature tensor = signature.input(name);
            if (tensor == null)
            {
                problems.add("unexpected inference input '" + name + "', allowed inputs are: "
                    + allowed(signature.inputs()));
                continue;
            }
            if (!checkType(problems, model, "input", name, input.getDataType(), tensor))
            {
                continue;
            }
            final List<Long> dims = input.hasReshape() ? input.getReshape().getShapeList() : input.getDimsList();
            if (input.getAllowRaggedBatch())
            {
                if (tensor.rank() != 1 || tensor.dims()[0] != -1)
                {
                    problems.add("unable to load model '" + model + "', configuration expects model provides input"
                        + " with shape [-1]  for ragged input '" + name + "', model provides " + tensor.shapeText());
                }
                continue;
            }
            checkDims(problems, model, name, dims, maxBatchSize, tensor, false);
        }
        checkControls(problems, config, signature);
        checkStates(problems, config, signature);
        for (final ModelOutput output : config.getOutputList())
        {
            final String name = output.getName();
            final TensorSignature tensor = signature.output(name);
            if (tensor == null)
            {
                problems.add("unexpected inference output '" + name + "', allowed outputs are: "
                    + allowed(signature.outputs()));
                continue;
            }
            if (!checkType(problems, model, "output", name, output.getDataType(), tensor))
            {
                continue;
            }
            if (isBatchOutput(config, name))
            {
                continue;
            }
            final List<Long> dims = output.hasReshape() ? output.getReshape().getShapeList() : output.getDimsList();
            checkDims(problems, model, name, dims, maxBatchSize, tensor, true);
        }
        return problems;
    }

    /**
     * Triton's {@code ValidateBooleanSequenceControl}/{@code ValidateTypedSequenceControl}: each control input is a
     * model input, of dims {@code [1]} after the batch dimension, of the type the control is written in.
     */
    private static void checkControls(final List<String> problems, final ModelConfig config,
        final ModelSignature signature)
    {
        final String model = config.getName();
        for (final ModelInput control : SequenceBatcherTensors.controls(config))
        {
            final String name = control.getName();
            final TensorSignature tensor = signature.input(name);
            if (tensor == null)
            {
                problems.add("configuration specified sequence control '" + name + "', but model does not provide"
                    + " that input (model '" + model + "' has inputs: " + allowed(signature.inputs()) + ")");
                continue;
            }
            final long[] dims = tensor.dims();
            final int first = config.getMaxBatchSize() > 0 && dims.length > 0 ? 1 : 0;
            final long[] debatched = Arrays.copyOfRange(dims, first, dims.length);
            if (debatched.length != 1 || debatched[0] != 1)
            {
                problems.add("unable to load model '" + model + "', sequence control '" + name + "' in model has"
                    + " dims " + Shapes.text(debatched) + " but dims [1] is expected");
                continue;
            }
            final DataType expected = DataType.fromConfigNumber(control.getDataType().getNumber());
            if (tensor.dataType() != expected)
            {
                // Triton names the model's type as ONNX does, without ONNX Runtime's enum prefix.
                problems.add("unable to load model '" + model + "', sequence control '" + name + "', the model"
                    + " expects data-type " + tensor.onnxType() + " but the model configuration specifies data-type "
                    + control.getDataType().name());
            }
        }
    }

    /**
     * Triton's state checks in {@code ValidateInputs}/{@code ValidateOutputs}: each state's {@code input_name} is a
     * model input and its {@code output_name} a model output, both of the state's {@code data_type}. Their dims are
     * not compared (Triton does not either: a state may grow).
     */
    private static void checkStates(final List<String> problems, final ModelConfig config,
        final ModelSignature signature)
    {
        final String model = config.getName();
        for (final ModelInput state : SequenceBatcherTensors.stateInputs(config))
        {
            final TensorSignature tensor = signature.input(state.getName());
            if (tensor == null)
            {
                problems.add("unexpected inference input '" + state.getName() + "', allowed inputs are: "
                    + allowed(signature.inputs()) + " (it is the input_name of a sequence_batching state)");
                continue;
            }
            checkType(problems, model, "input state", state.getName(), state.getDataType(), tensor);
        }
        for (final ModelOutput state : SequenceBatcherTensors.stateOutputs(config))
        {
            final TensorSignature tensor = signature.output(state.getName());
            if (tensor == null)
            {
                problems.add("unexpected inference output '" + state.getName() + "', allowed outputs are: "
                    + allowed(signature.outputs()) + " (it is the output_name of a sequence_batching state)");
                continue;
            }
            checkType(problems, model, "output state", state.getName(), state.getDataType(), tensor);
        }
    }

    /** What Triton's backend counts: configured inputs less optional ones, plus batch inputs, controls, states. */
    private static int expectedInputCount(final ModelConfig config)
    {
        int count = config.getBatchInputCount();
        for (final ModelInput input : config.getInputList())
        {
            count += input.getOptional() ? 0 : 1;
        }
        if (config.hasSequenceBatching())
        {
            final ModelSequenceBatching batching = config.getSequenceBatching();
            for (final ModelSequenceBatching.Control.Kind kind : new ModelSequenceBatching.Control.Kind[] {
                ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_START,
                ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_END,
                ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_READY,
                ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_CORRID})
            {
                if (hasControl(batching, kind))
                {
                    count++;
                }
            }
            count += batching.getStateCount();
        }
        return count;
    }

    private static boolean hasControl(final ModelSequenceBatching batching,
        final ModelSequenceBatching.Control.Kind kind)
    {
        for (final ModelSequenceBatching.ControlInput input : batching.getControlInputList())
        {
            for (final ModelSequenceBatching.Control control : input.getControlList())
            {
                if (control.getKind() == kind)
                {
                    return true;
                }
            }
        }
        return false;
    }

    /** Ingot's detail for a count mismatch: the model inputs the configuration does not name. */
    private static String unconfigured(final ModelConfig config, final ModelSignature signature)
    {
        final List<String> missing = new ArrayList<>();
        for (final TensorSignature tensor : signature.inputs())
        {
            if (SequenceBatcherTensors.allInputs(config).stream()
                .noneMatch(input -> input.getName().equals(tensor.name())))
            {
                missing.add("'" + tensor.name() + "' (" + OnnxTypes.configName(tensor.dataType()) + " "
                    + tensor.shapeText() + ")");
            }
        }
        return missing.isEmpty() ? "" : " (model inputs missing from the configuration: " + String.join(", ", missing)
            + ")";
    }

    private static boolean isBatchOutput(final ModelConfig config, final String name)
    {
        return config.getBatchOutputList().stream().anyMatch(output -> output.getTargetNameList().contains(name));
    }

    /** Triton lists the allowed names sorted, comma-separated. */
    private static String allowed(final List<TensorSignature> tensors)
    {
        final TreeSet<String> names = new TreeSet<>();
        for (final TensorSignature tensor : tensors)
        {
            names.add(tensor.name());
        }
        return String.join(", ", names);
    }

    /** @return whether the type matches and can be served, adding the problem when not */
    private static boolean checkType(final List<String> problems, final String model, final String role,
        final String name, final io.ingot.config.proto.DataType configured, final TensorSignature tensor)
    {
        final DataType configuredType = DataType.fromConfigNumber(configured.getNumber());
        if (configuredType != tensor.dataType())
        {
            problems.add("unable to load model '" + model + "', configuration expects datatype " + configured.name()
                + " for " + role + " '" + name + "', model provides " + (tensor.dataType() == null
                ? tensor.onnxType() + " (no Triton data type)" : OnnxTypes.configName(tensor.dataType())));
            return false;
        }
        return true;
    }

    private static void checkDims(final List<String> problems, final String model, final String name,
        final List<Long> configured, final int maxBatchSize, final TensorSignature tensor, final boolean exact)
    {
        final long[] modelDims = tensor.dims();
        if (modelDims.length == 0)
        {
            for (final long dim : configured)
            {
                if (dim != 1)
                {
                    problems.add("unable to load model '" + model + "', scalar tensor '" + name + "', should only"
                        + " provide 1 in the model configuration when the model doesn't support batching. Model"
                        + " configuration provided: " + Shapes.text(configured) + ".");
                    return;
                }
            }
            return;
        }
        final String tensorText = "model '" + model + "', tensor '" + name + "': ";
        final long[] full;
        if (maxBatchSize > 0)
        {
            if (modelDims[0] != -1)
            {
                problems.add(tensorText + "for the model to support batching the shape should have at least 1"
                    + " dimension and the first dimension must be -1; but shape expected by the model is "
                    + tensor.shapeText() + " (set max_batch_size: 0, or export the model with a dynamic batch axis)");
                return;
            }
            full = new long[configured.size() + 1];
            full[0] = -1;
            for (int i = 0; i < configured.size(); i++)
            {
                full[i + 1] = configured.get(i);
            }
        }
        else
        {
            full = Shapes.array(configured);
        }
        boolean matches = modelDims.length == full.length;
        for (int i = 0; matches && i < full.length; i++)
        {
            matches = modelDims[i] == full[i] || !exact && modelDims[i] == -1;
        }
        if (matches)
        {
            return;
        }
        final String configuredText = maxBatchSize > 0
            ? full.length + " dimensions (an initial batch dimension because max_batch_size > 0 followed by the"
                + " explicit tensor shape, making complete shape " + Shapes.text(full) + ")"
            : full.length + " dimensions (shape " + Shapes.text(full) + ")";
        problems.add(tensorText + "the model expects " + modelDims.length + " dimensions (shape " + tensor.shapeText()
            + ") but the model configuration specifies " + configuredText);
    }
}
