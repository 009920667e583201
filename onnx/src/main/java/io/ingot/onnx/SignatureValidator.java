package io.ingot.onnx;

import io.ingot.tensor.DataType;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks a model configuration against what the ONNX model declares, with the rules of Triton's ONNX Runtime
 * backend: every configured input and output exists in the model with the same element type; with
 * {@code max_batch_size > 0} every tensor's first model dimension is dynamic and the rest match {@code dims} (or
 * {@code reshape}); an input dimension the model leaves dynamic accepts any configured size, while output
 * dimensions must match exactly; every model input is configured. It reports every disagreement, not only the first.
 */
final class SignatureValidator
{
    private SignatureValidator()
    {
    }

    /**
     * @param config    the model's configuration
     * @param signature what the model file declares
     * @return one sentence per disagreement; empty when they agree
     */
    static List<String> check(final ModelConfig config, final ModelSignature signature)
    {
        final List<String> problems = new ArrayList<>();
        final int maxBatchSize = config.getMaxBatchSize();
        for (final ModelInput input : config.getInputList())
        {
            final TensorSignature model = signature.input(input.getName());
            if (model == null)
            {
                problems.add("configuration input '" + input.getName() + "' is not an input of the model (its inputs"
                    + " are " + ModelSignature.names(signature.inputs()) + ")");
                continue;
            }
            checkType(problems, "input", input.getName(), input.getDataType(), model);
            final List<Long> dims = input.hasReshape() ? input.getReshape().getShapeList() : input.getDimsList();
            checkDims(problems, "input", input.getName(), dims, input.hasReshape(), maxBatchSize, model, false);
        }
        for (final TensorSignature model : signature.inputs())
        {
            if (!hasInput(config, model.name()))
            {
                problems.add("model input '" + model.name() + "' (" + OnnxTypes.configName(model.dataType()) + " "
                    + model.shapeText() + ") is missing from the configuration");
            }
        }
        for (final ModelOutput output : config.getOutputList())
        {
            final TensorSignature model = signature.output(output.getName());
            if (model == null)
            {
                problems.add("configuration output '" + output.getName() + "' is not an output of the model (its"
                    + " outputs are " + ModelSignature.names(signature.outputs()) + ")");
                continue;
            }
            checkType(problems, "output", output.getName(), output.getDataType(), model);
            final List<Long> dims = output.hasReshape() ? output.getReshape().getShapeList() : output.getDimsList();
            checkDims(problems, "output", output.getName(), dims, output.hasReshape(), maxBatchSize, model, true);
        }
        return problems;
    }

    private static boolean hasInput(final ModelConfig config, final String name)
    {
        for (final ModelInput input : config.getInputList())
        {
            if (input.getName().equals(name))
            {
                return true;
            }
        }
        return false;
    }

    private static void checkType(final List<String> problems, final String role, final String name,
        final io.ingot.config.proto.DataType configured, final TensorSignature model)
    {
        final DataType configuredType = DataType.fromConfigNumber(configured.getNumber());
        if (configuredType != model.dataType())
        {
            problems.add(role + " '" + name + "': the configuration says " + configured.name() + ", the model has "
                + (model.dataType() == null ? model.onnxType() : OnnxTypes.configName(model.dataType())));
        }
        else if (!OnnxTypes.isSupportedByJavaApi(configuredType))
        {
            problems.add(role + " '" + name + "' is " + configured.name() + ": ONNX Runtime's Java API cannot pass"
                + " unsigned 16/32/64-bit tensors");
        }
    }

    private static void checkDims(final List<String> problems, final String role, final String name,
        final List<Long> configured, final boolean reshaped, final int maxBatchSize, final TensorSignature model,
        final boolean exact)
    {
        final String field = reshaped ? "reshape" : "dims";
        final long[] modelDims = model.dims();
        int first = 0;
        if (maxBatchSize > 0)
        {
            if (!model.hasDynamicFirstDim())
            {
                problems.add(role + " '" + name + "': max_batch_size is " + maxBatchSize + " but the model's shape "
                    + model.shapeText() + " has no dynamic first (batch) dimension; set max_batch_size: 0 or export"
                    + " the model with a dynamic batch axis");
                return;
            }
            first = 1;
        }
        if (modelDims.length == 0)
        {
            for (final long dim : configured)
            {
                if (dim != 1)
                {
                    problems.add(role + " '" + name + "' is a scalar in the model, so its " + field + " must be [1],"
                        + " not " + Shapes.text(configured));
                    return;
                }
            }
            return;
        }
        boolean matches = modelDims.length - first == configured.size();
        for (int i = 0; matches && i < configured.size(); i++)
        {
            final long modelDim = modelDims[i + first];
            final long configDim = configured.get(i);
            matches = modelDim == configDim || (!exact && modelDim < 0);
        }
        if (!matches)
        {
            problems.add(role + " '" + name + "': the configuration's " + field + " " + Shapes.text(configured)
                + (first == 1 ? " (after the batch dimension)" : "") + " do not match the model's shape "
                + model.shapeText() + (exact ? " (output dimensions must match exactly, -1 where the model's is"
                + " dynamic)" : ""));
        }
    }
}
