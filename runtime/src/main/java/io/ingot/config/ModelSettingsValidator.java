package io.ingot.config;

import io.ingot.config.proto.DataType;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import io.ingot.config.proto.ModelMetrics;
import io.ingot.config.proto.ModelQueuePolicy;
import io.ingot.config.proto.ModelSequenceBatching;
import io.ingot.config.proto.ModelVersionPolicy;

/**
 * The model-level half of Triton's {@code ValidateModelConfig}: name, platform and backend, {@code max_batch_size},
 * version policy, dynamic and sequence batching, ensemble scheduling, the response cache with a decoupled model, and
 * metrics; then {@link ModelFileReferences} for the file names the configuration holds. Inputs and outputs are
 * {@link TensorConfigValidator}'s, instance groups {@link InstanceGroupValidator}'s.
 *
 * <p>Contract: every failure is {@link ConfigException.Category#INVALID_ARG} with Triton's message naming the model and
 * the field; the first one found is thrown. Stateless: safe from any thread.
 */
final class ModelSettingsValidator
{
    private ModelSettingsValidator()
    {
    }

    /**
     * @param config the normalized configuration
     * @throws ConfigException INVALID_ARG naming the model, the field and what was expected
     */
    static void validate(final ModelConfig config) throws ConfigException
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
        ModelFileReferences.validate(config);
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
}
