package io.ingot.tensorflow;

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
 *   <li>element types agree ("configuration expects datatype TYPE_FP32 for input 'x', model provides TYPE_INT32").</li>
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
        int expected = config.getInputCount() + config.getBatchInputCount()
            + config.getSequenceBatching().getControlInputCount();
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
                    compareDims(problems, model, tensor, dims, batching, false);
                }
            }
            compareType(problems, model, "input", input.getName(), input.getDataTypeValue(), tensor);
        }
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
                compareDims(problems, model, tensor, dims, batching, true);
            }
            compareType(problems, model, "output", output.getName(), output.getDataTypeValue(), tensor);
        }
        return problems;
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

    private static void compareDims(final List<String> problems, final String model, final SignatureTensor tensor,
        final List<Long> dims, final boolean batching, final boolean exact)
    {
        final String prefix = "model '" + model + "', tensor '" + tensor.name() + "': ";
        final List<Long> full = new ArrayList<>();
        if (batching)
        {
            if (tensor.rank() == 0 || tensor.dim(0) != -1)
            {
                problems.add(prefix + "for the model to support batching the shape should have at least 1 dimension"
                    + " and the first dimension must be -1; but shape expected by the model is "
                    + tensor.shapeText());
                return;
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
            problems.add(prefix + "the model expects " + tensor.rank() + " dimensions (shape " + tensor.shapeText()
                + ") but the model configuration specifies " + full.size() + " dimensions ("
                + (batching ? "an initial batch dimension because max_batch_size > 0 followed by the explicit tensor"
                + " shape, making complete shape " : "shape ") + text(full) + ")");
        }
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
