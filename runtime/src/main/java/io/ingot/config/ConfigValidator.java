package io.ingot.config;

import io.ingot.config.proto.ModelConfig;

/**
 * Triton's validation of a normalized configuration ({@code ValidateModelConfig}, {@code ValidateModelIOConfig},
 * {@code ValidateInstanceGroup}), with Triton's messages, plus a few structural checks Triton leaves to later
 * stages (unique tensor names, a non-empty {@code specific} version list, {@code count >= 1}). Every failure is
 * {@link ConfigException.Category#INVALID_ARG}; the first one found is thrown.
 *
 * <p>Ensemble data-flow checks are the ones Triton makes on the ensemble's own config; whether the step models
 * exist and their tensors match is checked when the ensemble is loaded, not here.
 *
 * <p>This class is the entry point and keeps the order Triton checks in; each part is a class of its own:
 * {@link ModelSettingsValidator} (model-level fields), {@link TensorConfigValidator} (inputs, outputs, batch inputs and
 * outputs) and {@link InstanceGroupValidator}. Stateless: safe from any thread.
 */
public final class ConfigValidator
{
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
        ModelSettingsValidator.validate(config);
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
        TensorConfigValidator.validate(config);
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
        InstanceGroupValidator.validate(config, context);
        if (!config.hasEnsembleScheduling())
        {
            ImplementationLimits.checkInstances(config);
        }
    }
}
