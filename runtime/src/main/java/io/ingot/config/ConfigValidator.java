package io.ingot.config;

import io.ingot.config.proto.BatchInput;
import io.ingot.config.proto.BatchOutput;
import io.ingot.config.proto.DataType;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.config.proto.ModelMetrics;
import io.ingot.config.proto.ModelOutput;
import io.ingot.config.proto.ModelQueuePolicy;
import io.ingot.config.proto.ModelSequenceBatching;
import io.ingot.config.proto.ModelTensorReshape;
import io.ingot.config.proto.ModelVersionPolicy;
import io.ingot.config.proto.ModelWarmup;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Triton's validation of a normalized configuration ({@code ValidateModelConfig}, {@code ValidateModelIOConfig},
 * {@code ValidateInstanceGroup}), with Triton's messages, plus a few structural checks Triton leaves to later
 * stages (unique tensor names, a non-empty {@code specific} version list, {@code count >= 1}). Every failure is
 * {@link ConfigException.Category#INVALID_ARG}; the first one found is thrown.
 *
 * <p>Ensemble data-flow checks are the ones Triton makes on the ensemble's own config; whether the step models
 * exist and their tensors match is checked when the ensemble is loaded, not here.
 */
public final class ConfigValidator
{
    private static final long WILDCARD_DIM = -1;
    private static final long WILDCARD_SIZE = -1;

    private ConfigValidator()
    {
    }

    /**
     * Validates a normalized configuration without knowledge of the machine: GPU groups must list GPUs, but whether
     * those GPUs exist is not checked (see {@link #validate(ModelConfig, NormalizeContext)}).
     *
     * @param config the normalized configuration
     * @throws ConfigException INVALID_ARG naming the model, the field and what was expected
     */
    public static void validate(final ModelConfig config) throws ConfigException
    {
        validateModelConfig(config);
        validateIoConfig(config);
        validateInstanceGroups(config, null);
    }

    /**
     * Validates a normalized configuration, including that every GPU a group lists exists on this machine: what
     * Triton checks once a model's configuration is final (its {@code Model::Init}).
     *
     * @param config  the normalized configuration
     * @param context the machine's GPUs
     * @throws ConfigException INVALID_ARG naming the model, the field and what was expected
     */
    public static void validate(final ModelConfig config, final NormalizeContext context) throws ConfigException
    {
        validateModelConfig(config);
        validateIoConfig(config);
        validateInstanceGroups(config, context);
    }

    /**
     * Triton's {@code ValidateModelConfig}: the model-level checks (platform and backend, {@code max_batch_size},
     * version policy, schedulers, ensemble, response cache, metrics), plus Ingot's checks that file names stay
     * inside the model directory and that every integer field is within what Ingot can hold. Inputs and outputs are
     * not looked at: Triton checks them only after the backend had its chance to auto-complete them.
     *
     * @param config the normalized configuration
     * @throws ConfigException INVALID_ARG naming the model, the field and what was expected
     */
    public static void validateModelConfig(final ModelConfig config) throws ConfigException
    {
        validateModel(config);
        ImplementationLimits.checkModel(config);
    }

    /**
     * Triton's {@code ValidateModelIOConfig}: every input, output, batch input and batch output.
     *
     * @param config the normalized configuration
     * @throws ConfigException INVALID_ARG naming the model, the tensor and what was expected
     */
    public static void validateIoConfig(final ModelConfig config) throws ConfigException
    {
        validateIo(config);
    }

    /**
     * Triton's {@code ValidateInstanceGroup} (made once the backend is known, before the backend auto-completes).
     *
     * @param config  the normalized configuration
     * @param context the machine's GPUs, or {@code null} not to check that listed GPUs exist
     * @throws ConfigException INVALID_ARG naming the model, the group and what was expected
     */
    public static void validateInstanceGroups(final ModelConfig config, final NormalizeContext context)
        throws ConfigException
    {
        validateGroups(config, context);
        if (!config.hasEnsembleScheduling())
        {
            ImplementationLimits.checkInstances(config);
        }
    }

    private static void validateModel(final ModelConfig config) throws ConfigException
    {
        final String m = config.getName();
        if (m.isEmpty())
        {
            throw ConfigException.invalid("model configuration must specify 'name'");
        }
        if (config.getBackend().isEmpty())
        {
            if (!Platforms.ENSEMBLE.equals(config.getPlatform()))
            {
                throw ConfigException.invalid("unexpected platform type '" + config.getPlatform() + "' for " + m);
            }
        }
        else if (Platforms.ENSEMBLE.equals(config.getPlatform()))
        {
            throw ConfigException.invalid("Ensemble model '" + m + "' must have platform type '"
                + config.getPlatform() + "' and empty backend type");
        }
        if (!Platforms.pairMatches(config.getPlatform(), config.getBackend()))
        {
            throw ConfigException.invalid("unexpected 'platform' and 'backend' pair, got:" + config.getPlatform()
                + ", " + config.getBackend());
        }
        if (config.getMaxBatchSize() < 0)
        {
            throw ConfigException.invalid("'max_batch_size' must be non-negative value for " + m);
        }
        validateVersionPolicy(config);
        if (config.hasDynamicBatching())
        {
            validateDynamicBatching(config.getDynamicBatching(), config.getMaxBatchSize(), m);
        }
        if (config.hasSequenceBatching())
        {
            validateSequenceBatching(config, m);
        }
        BatchingParameters.of(config);
        if (config.hasEnsembleScheduling())
        {
            EnsembleChecks.validate(config);
        }
        else if (Platforms.ENSEMBLE.equals(config.getPlatform()))
        {
            throw ConfigException.invalid("ensemble scheduling must be set for ensemble " + m + " whose platform is "
                + Platforms.ENSEMBLE);
        }
        if (config.getModelTransactionPolicy().getDecoupled() && config.getResponseCache().getEnable())
        {
            throw ConfigException.invalid("Response Cache does not currently support model " + m
                + " with 'decoupled' transaction policy. Please disable the response cache.");
        }
        if (config.hasModelMetrics())
        {
            validateMetrics(config.getModelMetrics(), m);
        }
        validateFileReferences(config);
    }

    /**
     * Every file a configuration names lives inside the model's directory; a name that is absolute or climbs out
     * with {@code ..} would let a configuration read any file of the machine.
     */
    private static void validateFileReferences(final ModelConfig config) throws ConfigException
    {
        final String m = config.getName();
        if (!config.getDefaultModelFilename().isEmpty())
        {
            checkInside(config.getDefaultModelFilename(), "'default_model_filename'", m);
        }
        for (final Map.Entry<String, String> entry : config.getCcModelFilenamesMap().entrySet())
        {
            checkInside(entry.getValue(), "'cc_model_filenames' entry '" + entry.getKey() + "'", m);
        }
        for (final ModelOutput output : config.getOutputList())
        {
            if (!output.getLabelFilename().isEmpty())
            {
                checkInside(output.getLabelFilename(), "'label_filename' of output '" + output.getName() + "'", m);
            }
        }
        for (final ModelWarmup warmup : config.getModelWarmupList())
        {
            for (final Map.Entry<String, ModelWarmup.Input> input : warmup.getInputsMap().entrySet())
            {
                if (input.getValue().hasInputDataFile())
                {
                    checkInside(input.getValue().getInputDataFile(), "'input_data_file' of warmup '"
                        + warmup.getName() + "' input '" + input.getKey() + "'", m);
                }
            }
        }
        for (final ModelSequenceBatching.State state : config.getSequenceBatching().getStateList())
        {
            for (final ModelSequenceBatching.InitialState initial : state.getInitialStateList())
            {
                if (initial.hasDataFile())
                {
                    checkInside(initial.getDataFile(), "'data_file' of initial state '" + initial.getName() + "'", m);
                }
            }
        }
    }

    private static void checkInside(final String file, final String field, final String m) throws ConfigException
    {
        boolean inside;
        try
        {
            final Path path = Path.of(file).normalize();
            inside = !file.isEmpty() && !path.isAbsolute() && !path.startsWith("..") && !file.startsWith("/")
                && !file.startsWith("\\");
        }
        catch (final InvalidPathException e)
        {
            inside = false;
        }
        if (!inside)
        {
            throw ConfigException.invalid(field + " of model '" + m + "' must be a relative path inside the "
                + "model directory, got '" + file + "'");
        }
    }

    private static void validateVersionPolicy(final ModelConfig config) throws ConfigException
    {
        final String m = config.getName();
        if (!config.hasVersionPolicy())
        {
            throw ConfigException.invalid("must specify 'version policy' for " + m);
        }
        final ModelVersionPolicy policy = config.getVersionPolicy();
        if (policy.getPolicyChoiceCase() == ModelVersionPolicy.PolicyChoiceCase.POLICYCHOICE_NOT_SET)
        {
            throw ConfigException.invalid("'version_policy' of model '" + m
                + "' must choose one of 'latest', 'all' or 'specific'");
        }
        if (policy.hasSpecific() && policy.getSpecific().getVersionsCount() == 0)
        {
            throw ConfigException.invalid("'version_policy.specific' of model '" + m
                + "' must list at least one version in 'versions'");
        }
    }

    private static void validateDynamicBatching(final ModelDynamicBatching batching, final int maxBatchSize,
        final String m) throws ConfigException
    {
        for (final int size : batching.getPreferredBatchSizeList())
        {
            if (size <= 0)
            {
                throw ConfigException.invalid("dynamic batching preferred size must be positive for " + m);
            }
            if (size > maxBatchSize)
            {
                throw ConfigException.invalid("dynamic batching preferred size must be <= max batch size for " + m);
            }
        }
        final long levels = batching.getPriorityLevels();
        if (levels != 0)
        {
            final long defaultLevel = batching.getDefaultPriorityLevel();
            if (defaultLevel == 0 || Long.compareUnsigned(defaultLevel, levels) > 0)
            {
                throw ConfigException.invalid("default priority level must be in range [1, "
                    + Long.toUnsignedString(levels) + "] for " + m);
            }
            for (final long level : batching.getPriorityQueuePolicyMap().keySet())
            {
                if (level == 0 || Long.compareUnsigned(level, levels) > 0)
                {
                    throw ConfigException.invalid("priority queue policy must have priority level in range [1, "
                        + Long.toUnsignedString(levels) + "] for " + m);
                }
            }
        }
        if (batching.getPreserveOrdering())
        {
            if (Long.compareUnsigned(levels, 1) > 0)
            {
                throw ConfigException.invalid(
                    "Only one priority level is allowed when 'preserve_ordering' is true for " + m);
            }
            boolean delays = delaysWithTimeout(batching.getDefaultQueuePolicy());
            for (final ModelQueuePolicy policy : batching.getPriorityQueuePolicyMap().values())
            {
                delays |= delaysWithTimeout(policy);
            }
            if (delays)
            {
                throw ConfigException.invalid(
                    "Queue policy can not have DELAY as timeout action when 'preserve_ordering' is true for " + m);
            }
        }
    }

    private static boolean delaysWithTimeout(final ModelQueuePolicy policy)
    {
        return policy.getDefaultTimeoutMicroseconds() != 0
            && policy.getTimeoutAction() == ModelQueuePolicy.TimeoutAction.DELAY;
    }

    private static void validateSequenceBatching(final ModelConfig config, final String m) throws ConfigException
    {
        if (config.getResponseCache().getEnable())
        {
            throw ConfigException.invalid("Response Cache does not currently support model " + m
                + " with sequence batching scheduler. Please disable the response cache.");
        }
        final ModelSequenceBatching batching = config.getSequenceBatching();
        SequenceControls.checkBoolean(batching, m, ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_START);
        SequenceControls.checkBoolean(batching, m, ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_END);
        SequenceControls.checkBoolean(batching, m, ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_READY);
        final DataType corrIdType = SequenceControls.checkTyped(batching, m,
            ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_CORRID);
        if (corrIdType != null && corrIdType != DataType.TYPE_UINT64 && corrIdType != DataType.TYPE_INT64
            && corrIdType != DataType.TYPE_UINT32 && corrIdType != DataType.TYPE_INT32
            && corrIdType != DataType.TYPE_STRING)
        {
            throw ConfigException.invalid("unexpected data type for control CONTROL_SEQUENCE_CORRID for " + m
                + ". Allowed data types are TYPE_UINT64, TYPE_INT64, TYPE_UINT32, TYPE_INT32 and TYPE_STRING");
        }
        if (batching.hasOldest())
        {
            for (final int size : batching.getOldest().getPreferredBatchSizeList())
            {
                if (size <= 0)
                {
                    throw ConfigException.invalid(
                        "sequence batching preferred batch size must be positive for " + m);
                }
                if (size > config.getMaxBatchSize())
                {
                    throw ConfigException.invalid(
                        "sequence batching preferred batch size must be <= max batch size for " + m);
                }
            }
        }
        if (batching.hasDirect())
        {
            final float utilization = batching.getDirect().getMinimumSlotUtilization();
            if (!(utilization >= 0.0f && utilization <= 1.0f))
            {
                throw ConfigException.invalid(
                    "sequence batching minimum slot utilization must be in range (0.0, 1.0] for " + m);
            }
        }
    }

    private static void validateMetrics(final ModelMetrics metrics, final String m) throws ConfigException
    {
        for (final ModelMetrics.MetricControl control : metrics.getMetricControlList())
        {
            if (!control.hasMetricIdentifier())
            {
                throw ConfigException.invalid("metric control must specify 'metric_identifier' for " + m);
            }
            if (control.getMetricIdentifier().getFamily().isEmpty())
            {
                throw ConfigException.invalid("metric identifier must specify non-empty 'family' for " + m);
            }
            if (!control.hasHistogramOptions())
            {
                throw ConfigException.invalid("metric control must specify 'histogram_options' for " + m);
            }
            if (control.getHistogramOptions().getBucketsCount() == 0)
            {
                throw ConfigException.invalid("histogram options must specify non-empty 'buckets' for " + m);
            }
        }
    }

    private static void validateIo(final ModelConfig config) throws ConfigException
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

    private static void validateGroups(final ModelConfig config, final NormalizeContext context)
        throws ConfigException
    {
        if (config.hasEnsembleScheduling())
        {
            return;
        }
        final String m = config.getName();
        if (config.getInstanceGroupCount() == 0)
        {
            throw ConfigException.invalid("must specify one or more 'instance group's for " + m);
        }
        for (final ModelInstanceGroup group : config.getInstanceGroupList())
        {
            final String g = "instance group " + group.getName() + " of model " + m;
            switch (group.getKind())
            {
                case KIND_MODEL, KIND_CPU ->
                {
                    if (group.getGpusCount() > 0)
                    {
                        throw ConfigException.invalid(g + " has kind " + group.getKind().name()
                            + " but specifies one or more GPUs");
                    }
                }
                case KIND_GPU -> validateGpus(group, g, context);
                case KIND_AUTO -> throw ConfigException.invalid(g + " has unexpected kind KIND_AUTO (the "
                    + "configuration was not normalized)");
                default -> throw ConfigException.invalid(g + " has unknown kind " + group.getKindValue());
            }
            if (group.getCount() < 1)
            {
                throw ConfigException.invalid(g + " must have 'count' >= 1, got " + group.getCount());
            }
            if (!Platforms.TENSORRT_PLAN.equals(config.getPlatform()) && group.getProfileCount() > 0)
            {
                throw ConfigException.invalid(g + " and platform " + config.getPlatform()
                    + " specifies profile field which is only supported for TensorRT models");
            }
            for (final String profile : group.getProfileList())
            {
                if (!isNonNegativeInteger(profile))
                {
                    throw ConfigException.invalid(g + " and platform " + config.getPlatform()
                        + " specifies invalid profile " + profile
                        + ". The field should contain the string representation of a non-negative integer.");
                }
            }
        }
    }

    private static void validateGpus(final ModelInstanceGroup group, final String g, final NormalizeContext context)
        throws ConfigException
    {
        if (group.getGpusCount() == 0)
        {
            if (context != null && !context.hasGpus())
            {
                throw ConfigException.invalid(g + " has kind KIND_GPU but no GPUs are available");
            }
            throw ConfigException.invalid(g + " has kind KIND_GPU but specifies no GPUs");
        }
        if (context == null)
        {
            return;
        }
        for (final int gpu : group.getGpusList())
        {
            if (!context.hasGpu(gpu))
            {
                // Triton's words; Ingot has no minimum compute capability, so the list is every GPU it found.
                throw ConfigException.invalid(g + " specifies invalid or unsupported gpu id " + gpu
                    + ". GPUs with at least the minimum required CUDA compute compatibility (Ingot uses every GPU the"
                    + " CUDA runtime reports) are: " + context.gpuIds().stream().map(String::valueOf)
                    .collect(Collectors.joining(", ")));
            }
        }
    }

    private static boolean isNonNegativeInteger(final String text)
    {
        if (text.isEmpty() || text.length() > 9)
        {
            return false;
        }
        for (int i = 0; i < text.length(); i++)
        {
            if (!Character.isDigit(text.charAt(i)) || text.charAt(i) > '9')
            {
                return false;
            }
        }
        return true;
    }
}
