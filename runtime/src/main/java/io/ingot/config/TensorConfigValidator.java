package io.ingot.config;

import io.ingot.config.proto.BatchInput;
import io.ingot.config.proto.BatchOutput;
import io.ingot.config.proto.DataType;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;
import io.ingot.config.proto.ModelTensorReshape;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Triton's {@code ValidateModelIOConfig}: every input and output (a name, a datatype, dims of integers >= 1 or -1, a
 * reshape with the same element count and the same runs between wildcards, TensorRT-only features on TensorRT only,
 * unique names) and every batch input and batch output (kinds, data types, and that their source and target tensors
 * exist).
 *
 * <p>Contract: every failure is {@link ConfigException.Category#INVALID_ARG} with Triton's message naming the model and
 * the tensor; the first one found is thrown. Stateless: safe from any thread.
 */
final class TensorConfigValidator
{
    private static final long WILDCARD_DIM = -1;
    private static final long WILDCARD_SIZE = -1;

    private TensorConfigValidator()
    {
    }

    /**
     * @param config the normalized configuration
     * @throws ConfigException INVALID_ARG naming the model, the tensor and what was expected
     */
    static void validate(final ModelConfig config) throws ConfigException
    {
        final String m = config.getName();
        final Set<String> inputNames = new HashSet<>();
        for (final ModelInput input : config.getInputList())
        {
            validateShape("model input ", input.getName(), input.getDataType(), input.getDimsList(),
                input.hasReshape() ? input.getReshape() : null, config.getMaxBatchSize(), m);
            if (!inputNames.add(input.getName()))
            {
                throw ConfigException.invalid("model input '" + input.getName() + "' is specified more than once for "
                    + m);
            }
            if ((input.getFormat() == ModelInput.Format.FORMAT_NHWC
                || input.getFormat() == ModelInput.Format.FORMAT_NCHW) && input.getDimsCount() != 3)
            {
                throw ConfigException.invalid("model input NHWC/NCHW require 3 dims for " + m);
            }
            validateTensorRtOnly(config, input.getIsShapeTensor(), input.getIsNonLinearFormatIo(),
                input.getDimsCount(), "input");
        }
        final Set<String> outputNames = new HashSet<>();
        for (final ModelOutput output : config.getOutputList())
        {
            validateShape("model output ", output.getName(), output.getDataType(), output.getDimsList(),
                output.hasReshape() ? output.getReshape() : null, config.getMaxBatchSize(), m);
            if (!outputNames.add(output.getName()))
            {
                throw ConfigException.invalid("model output '" + output.getName()
                    + "' is specified more than once for " + m);
            }
            validateTensorRtOnly(config, output.getIsShapeTensor(), output.getIsNonLinearFormatIo(),
                output.getDimsCount(), "output");
        }
        validateBatchIo(config, inputNames, outputNames);
    }

    private static void validateTensorRtOnly(final ModelConfig config, final boolean shapeTensor,
        final boolean nonLinear, final int dims, final String direction) throws ConfigException
    {
        final boolean tensorRt = Platforms.TENSORRT_PLAN.equals(config.getPlatform());
        if (!tensorRt && shapeTensor)
        {
            throw ConfigException.invalid("shape tensors are only supported for TensorRT platform for "
                + config.getName());
        }
        if (nonLinear)
        {
            if (!tensorRt)
            {
                throw ConfigException.invalid("Non-linear IO format is only supported for the TensorRT platform for "
                    + config.getName());
            }
            if (dims != 3)
            {
                throw ConfigException.invalid("Non-linear IO format " + direction + " requires 3 dims for "
                    + config.getName());
            }
        }
    }

    private static void validateShape(final String prefix, final String name, final DataType dataType,
        final List<Long> dims, final ModelTensorReshape reshape, final int maxBatchSize, final String m)
        throws ConfigException
    {
        if (name.isEmpty())
        {
            throw ConfigException.invalid(prefix + "must specify 'name' for " + m);
        }
        final String named = prefix + "'" + name + "' ";
        if (dataType == DataType.TYPE_INVALID)
        {
            throw ConfigException.invalid(named + "must specify 'data_type' for " + m);
        }
        if (dims.isEmpty())
        {
            throw ConfigException.invalid(named + "must specify 'dims' for " + m);
        }
        if (reshape != null && reshape.getShapeCount() == 0 && maxBatchSize == 0)
        {
            throw ConfigException.invalid(named + "cannot have empty reshape for non-batching model as scalar "
                + "tensors are not supported for " + m);
        }
        for (final long dim : dims)
        {
            if (dim < 1 && dim != WILDCARD_DIM)
            {
                throw ConfigException.invalid(named + "dimension must be integer >= 1, or " + WILDCARD_DIM
                    + " to indicate a variable-size dimension for " + m);
            }
        }
        if (reshape == null)
        {
            return;
        }
        for (final long dim : reshape.getShapeList())
        {
            if (dim < 1 && dim != WILDCARD_DIM)
            {
                throw ConfigException.invalid(named + "reshape dimensions must be integer >= 1, or " + WILDCARD_DIM
                    + " to indicate a variable-size dimension for " + m);
            }
        }
        final long dimsSize = elementCount(dims, named + "dims", m);
        final long reshapeSize = elementCount(reshape.getShapeList(), named + "reshape", m);
        // An empty reshape (a scalar) matches dims holding exactly one element.
        if (dimsSize != reshapeSize && (reshapeSize != 0 || dimsSize != 1))
        {
            throw ConfigException.invalid(named + "has different size for dims and reshape for " + m);
        }
        if (dimsSize == WILDCARD_SIZE)
        {
            // With wildcards, each run of fixed dims between wildcards must hold as many elements on both sides:
            // [2, 4, -1, 6] may become [8, -1, 1, 6].
            final List<Long> dimRuns = runs(dims);
            final List<Long> reshapeRuns = runs(reshape.getShapeList());
            if (dimRuns.size() != reshapeRuns.size())
            {
                throw ConfigException.invalid(named + "has different number of variable-size dimensions for dims "
                    + "and reshape for " + m);
            }
            if (!dimRuns.equals(reshapeRuns))
            {
                throw ConfigException.invalid(named + "has different size for dims and reshape for " + m);
            }
        }
    }

    /** Element count as Triton computes it: -1 when any dim is a wildcard, 0 for an empty shape. */
    private static long elementCount(final List<Long> shape, final String what, final String m)
        throws ConfigException
    {
        long count = 0;
        boolean first = true;
        for (final long dim : shape)
        {
            if (dim == WILDCARD_DIM)
            {
                return WILDCARD_SIZE;
            }
            try
            {
                count = first ? dim : Math.multiplyExact(count, dim);
            }
            catch (final ArithmeticException e)
            {
                throw ConfigException.invalid(what + " has more elements than a 64-bit count holds for " + m);
            }
            first = false;
        }
        return count;
    }

    private static List<Long> runs(final List<Long> shape)
    {
        final List<Long> runs = new ArrayList<>();
        long current = 1;
        for (final long dim : shape)
        {
            if (dim == WILDCARD_DIM)
            {
                runs.add(current);
                current = 1;
            }
            else
            {
                current *= dim;
            }
        }
        runs.add(current);
        return runs;
    }

    private static void validateBatchIo(final ModelConfig config, final Set<String> inputNames,
        final Set<String> outputNames) throws ConfigException
    {
        final String forModel = " for " + config.getName();
        for (final BatchInput batchInput : config.getBatchInputList())
        {
            if (batchInput.getKind() == BatchInput.Kind.UNRECOGNIZED)
            {
                throw ConfigException.invalid("unknown batch input kind '" + batchInput.getKindValue() + "'"
                    + forModel);
            }
            if (batchInput.getSourceInputCount() != 1)
            {
                throw ConfigException.invalid("batch input kind '" + batchInput.getKind().name()
                    + "' expects 1 source input, got " + batchInput.getSourceInputCount() + forModel);
            }
            if (batchInput.getDataType() != DataType.TYPE_INT32 && batchInput.getDataType() != DataType.TYPE_FP32)
            {
                throw ConfigException.invalid("batch input data type must be TYPE_INT32 or TYPE_FP32" + forModel);
            }
            for (final String source : batchInput.getSourceInputList())
            {
                if (!inputNames.contains(source))
                {
                    throw ConfigException.invalid("unknown source input name '" + source + "'" + forModel);
                }
            }
        }
        for (final BatchOutput batchOutput : config.getBatchOutputList())
        {
            if (batchOutput.getKind() == BatchOutput.Kind.UNRECOGNIZED)
            {
                throw ConfigException.invalid("unknown batch output kind '" + batchOutput.getKindValue() + "'"
                    + forModel);
            }
            if (batchOutput.getSourceInputCount() != 1)
            {
                throw ConfigException.invalid("batch output kind '" + batchOutput.getKind().name()
                    + "' expects 1 source input, got " + batchOutput.getSourceInputCount() + forModel);
            }
            for (final String source : batchOutput.getSourceInputList())
            {
                if (!inputNames.contains(source))
                {
                    throw ConfigException.invalid("unknown source input name '" + source + "'" + forModel);
                }
            }
            final Set<String> targets = new HashSet<>();
            for (final String target : batchOutput.getTargetNameList())
            {
                if (!outputNames.contains(target))
                {
                    throw ConfigException.invalid("unknown target output name '" + target + "'" + forModel);
                }
                if (!targets.add(target))
                {
                    throw ConfigException.invalid("target output name '" + target + "' can only be specified once"
                        + forModel);
                }
            }
        }
    }
}
