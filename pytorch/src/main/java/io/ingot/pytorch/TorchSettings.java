package io.ingot.pytorch;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelParameter;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A model's settings, read from {@code parameters} under the keys Triton's PyTorch backend reads
 * ({@code ModelState::ParseParameters}), with its defaults and its value syntax (booleans {@code true/on/1} and
 * {@code false/off/0} in any case; integers):
 * <ul>
 *   <li>{@code INFERENCE_MODE} (default true): run (and load) under {@code c10::InferenceMode}; false runs under
 *       no-grad only;</li>
 *   <li>{@code DISABLE_OPTIMIZED_EXECUTION} (default false): turns off the graph executor's optimization (profiling
 *       and fusion) for this model's runs;</li>
 *   <li>{@code INTRA_OP_THREAD_COUNT}, {@code INTER_OP_THREAD_COUNT} (default: libtorch's, one per core): libtorch's
 *       process-wide thread pools; as in Triton, the first model that sets one wins;</li>
 *   <li>{@code ENABLE_WEIGHT_SHARING} (default false): one module for all the model's instances instead of one
 *       each.</li>
 * </ul>
 * {@code DISABLE_CUDNN} and {@code ENABLE_CACHE_CLEANING} concern CUDA, which libtorch for the CPU does not have, and
 * {@code ENABLE_TENSOR_FUSER}, {@code ENABLE_JIT_PROFILING}, {@code ENABLE_JIT_EXECUTOR} have no switch in DJL's JNI:
 * their values are checked and reported by {@link #ignored()}, not applied.
 *
 * @param inferenceMode      {@code INFERENCE_MODE}
 * @param optimizedExecution not {@code DISABLE_OPTIMIZED_EXECUTION}
 * @param intraOpThreads     {@code INTRA_OP_THREAD_COUNT}, or {@code -1} when unset
 * @param interOpThreads     {@code INTER_OP_THREAD_COUNT}, or {@code -1} when unset
 * @param weightSharing      {@code ENABLE_WEIGHT_SHARING}
 * @param ignored            the keys given that this backend checks but cannot apply
 */
record TorchSettings(boolean inferenceMode, boolean optimizedExecution, int intraOpThreads, int interOpThreads,
    boolean weightSharing, List<String> ignored)
{
    static final String INFERENCE_MODE = "INFERENCE_MODE";
    static final String DISABLE_OPTIMIZED_EXECUTION = "DISABLE_OPTIMIZED_EXECUTION";
    static final String INTRA_OP_THREAD_COUNT = "INTRA_OP_THREAD_COUNT";
    static final String INTER_OP_THREAD_COUNT = "INTER_OP_THREAD_COUNT";
    static final String ENABLE_WEIGHT_SHARING = "ENABLE_WEIGHT_SHARING";
    /** Keys Triton reads that have no effect here (CUDA-only, or no switch in DJL's JNI). */
    static final List<String> NOT_APPLIED = List.of("DISABLE_CUDNN", "ENABLE_CACHE_CLEANING", "ENABLE_TENSOR_FUSER",
        "ENABLE_JIT_PROFILING", "ENABLE_JIT_EXECUTOR");

    TorchSettings
    {
        ignored = List.copyOf(ignored);
    }

    /**
     * @param model  the model's name, for messages
     * @param config its configuration
     * @return its settings
     * @throws IllegalArgumentException naming the model, the parameter and the value, as Triton words it
     */
    static TorchSettings from(final String model, final ModelConfig config)
    {
        final Map<String, ModelParameter> parameters = config.getParametersMap();
        final List<String> ignored = new ArrayList<>();
        for (final String key : NOT_APPLIED)
        {
            if (parameters.containsKey(key))
            {
                bool(model, parameters, key, false);
                ignored.add(key);
            }
        }
        return new TorchSettings(bool(model, parameters, INFERENCE_MODE, true),
            !bool(model, parameters, DISABLE_OPTIMIZED_EXECUTION, false),
            integer(model, parameters, INTRA_OP_THREAD_COUNT), integer(model, parameters, INTER_OP_THREAD_COUNT),
            bool(model, parameters, ENABLE_WEIGHT_SHARING, false), ignored);
    }

    private static boolean bool(final String model, final Map<String, ModelParameter> parameters, final String key,
        final boolean defaultValue)
    {
        final ModelParameter parameter = parameters.get(key);
        if (parameter == null)
        {
            return defaultValue;
        }
        final String value = parameter.getStringValue();
        return switch (value.toLowerCase(Locale.ROOT))
        {
            case "true", "on", "1" -> true;
            case "false", "off", "0" -> false;
            default -> throw new IllegalArgumentException("model '" + model + "': parameter " + key + ": failed to"
                + " convert '" + value + "' to boolean (true, on, 1, false, off or 0)");
        };
    }

    private static int integer(final String model, final Map<String, ModelParameter> parameters, final String key)
    {
        final ModelParameter parameter = parameters.get(key);
        if (parameter == null)
        {
            return -1;
        }
        final String value = parameter.getStringValue().strip();
        try
        {
            return Integer.parseInt(value);
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException("model '" + model + "': parameter " + key + ": failed to convert '"
                + value + "' to integral number");
        }
    }

    /** @return the settings as a log line shows them */
    String describe()
    {
        return "inference mode " + (inferenceMode ? "on" : "off") + ", optimized execution "
            + (optimizedExecution ? "on" : "off") + ", " + (weightSharing ? "one module shared by the instances"
            : "one module per instance")
            + (intraOpThreads > 0 ? ", intra-op threads " + intraOpThreads : "")
            + (interOpThreads > 0 ? ", inter-op threads " + interOpThreads : "");
    }
}
