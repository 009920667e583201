package io.ingot.config;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInstanceGroup;

import java.util.stream.Collectors;

/**
 * Triton's {@code ValidateInstanceGroup}: at least one group (but none for an ensemble), a normalized kind, GPUs listed
 * for {@code KIND_GPU} and only for it (and, given the machine's {@link NormalizeContext}, that they exist),
 * {@code count >= 1}, and TensorRT optimization profiles only for TensorRT and only as non-negative integers.
 *
 * <p>Contract: every failure is {@link ConfigException.Category#INVALID_ARG} with Triton's message naming the model and
 * the group; the first one found is thrown. Stateless: safe from any thread.
 */
final class InstanceGroupValidator
{
    private InstanceGroupValidator()
    {
    }

    /**
     * @param config  the normalized configuration
     * @param context the machine's GPUs, or {@code null} not to check that listed GPUs exist
     * @throws ConfigException INVALID_ARG naming the model, the group and what was expected
     */
    static void validate(final ModelConfig config, final NormalizeContext context)
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
