package io.ingot.fil;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelParameter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Triton's FIL parameters of one model ({@code RapidsSharedState::load} in {@code src/shared_state.h}), read as
 * rapids_triton reads them ({@code SharedModelState::get_config_param}): string values, booleans exactly
 * {@code "true"} or {@code "false"}, numbers parsed, a parameter without a default required.
 *
 * <ul>
 *   <li>{@code model_type}: default {@code xgboost};</li>
 *   <li>{@code is_classifier}: required, unless the removed {@code output_class} is given (it is still honoured, with
 *       Triton's warning);</li>
 *   <li>{@code predict_proba}: default false; {@code threshold}: read for classifiers, default 0.5 as Triton's
 *       documentation says (Triton's code, unlike its documentation, requires it for classifiers);</li>
 *   <li>{@code cpu_nthread}: default -1, the library's own default thread count;</li>
 *   <li>{@code xgboost_allow_unknown_field} (false), {@code layout} (depth_first), {@code chunk_size} (1),
 *       {@code transfer_threshold} (0), {@code use_experimental_optimizations} (false): checked as Triton checks
 *       them (a number that does not parse falls back to its default with a warning, as rapids_triton does);
 *       they steer Treelite and GPU execution, which Ingot's CPU backend does not have, so they change
 *       nothing here;</li>
 *   <li>{@code algo}, {@code threads_per_tree}, {@code storage_type}, {@code blocks_per_sm}: removed in Triton 25.09,
 *       ignored with Triton's warning.</li>
 * </ul>
 *
 * @param modelType      the serialization format
 * @param isClassifier   whether {@code output__0} holds classes (or their probabilities) rather than values
 * @param predictProba   whether a classifier returns per-class probabilities instead of a class id
 * @param threshold      a binary classifier's decision threshold: class 1 when the probability is above it
 * @param cpuThreads     threads per prediction, or -1 (or 0) for the library's default
 * @param warnings       what Triton would warn about (removed parameters), for the load log
 */
public record FilParameters(ModelType modelType, boolean isClassifier, boolean predictProba, float threshold,
    int cpuThreads, List<String> warnings)
{
    private static final Map<String, String> REMOVED_WITH_REPLACEMENT = Map.of("algo", "layout",
        "threads_per_tree", "chunk_size", "output_class", "is_classifier");
    private static final List<String> REMOVED = List.of("storage_type", "blocks_per_sm");

    /** Copies the warnings. */
    public FilParameters
    {
        warnings = List.copyOf(warnings);
    }

    /**
     * @param config the model configuration
     * @return its FIL parameters
     * @throws IllegalArgumentException with Triton's message for a missing required parameter, a boolean that is
     *                                  neither "true" nor "false", a number that does not parse, or an unknown
     *                                  {@code model_type}
     */
    public static FilParameters from(final ModelConfig config)
    {
        final Map<String, ModelParameter> parameters = config.getParametersMap();
        final List<String> warnings = new ArrayList<>();
        Boolean outputClass = null;
        for (final String removed : List.of("algo", "threads_per_tree", "output_class"))
        {
            final String value = string(parameters, removed, "");
            if (!value.isEmpty())
            {
                warnings.add("The `" + removed + "` parameter has been removed in 25.09 release. Use `"
                    + REMOVED_WITH_REPLACEMENT.get(removed) + "` instead.");
                if (removed.equals("output_class") && (value.equals("true") || value.equals("false")))
                {
                    outputClass = Boolean.valueOf(value);
                }
            }
        }
        for (final String removed : REMOVED)
        {
            if (!string(parameters, removed, "").isEmpty())
            {
                warnings.add("The `" + removed + "` parameter has been removed in 25.09 release.");
            }
        }
        final boolean predictProba = bool(parameters, "predict_proba", false);
        final ModelType modelType = ModelType.parse(string(parameters, "model_type", "xgboost"));
        bool(parameters, "xgboost_allow_unknown_field", false);
        integer(parameters, "transfer_threshold", 0, warnings);
        final boolean isClassifier = outputClass != null ? outputClass : bool(parameters, "is_classifier", null);
        final float threshold = isClassifier ? (float)number(parameters, "threshold", 0.5, warnings) : 0.5f;
        integer(parameters, "chunk_size", 1, warnings);
        final int cpuThreads = integer(parameters, "cpu_nthread", -1, warnings);
        bool(parameters, "use_experimental_optimizations", false);
        final String layout = string(parameters, "layout", "depth_first");
        if (!List.of("depth_first", "breadth_first", "layered").contains(layout))
        {
            throw new IllegalArgumentException("Unrecognized layout '" + layout + "' for parameter layout (expected"
                + " depth_first, breadth_first or layered)");
        }
        return new FilParameters(modelType, isClassifier, predictProba, threshold, cpuThreads, warnings);
    }

    private static String string(final Map<String, ModelParameter> parameters, final String name,
        final String defaultValue)
    {
        final ModelParameter parameter = parameters.get(name);
        return parameter == null ? defaultValue : parameter.getStringValue();
    }

    private static boolean bool(final Map<String, ModelParameter> parameters, final String name,
        final Boolean defaultValue)
    {
        final ModelParameter parameter = parameters.get(name);
        if (parameter == null)
        {
            if (defaultValue == null)
            {
                throw new IllegalArgumentException("Required parameter " + name + " not found in config");
            }
            return defaultValue;
        }
        return switch (parameter.getStringValue())
        {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("Expected 'true' or 'false' for parameter '" + name
                + "', got: '" + parameter.getStringValue() + "'");
        };
    }

    private static int integer(final Map<String, ModelParameter> parameters, final String name,
        final int defaultValue, final List<String> warnings)
    {
        final ModelParameter parameter = parameters.get(name);
        if (parameter == null)
        {
            return defaultValue;
        }
        try
        {
            return Integer.parseInt(parameter.getStringValue().strip());
        }
        catch (final NumberFormatException ex)
        {
            warnings.add(badInput(name, parameter, defaultValue));
            return defaultValue;
        }
    }

    private static double number(final Map<String, ModelParameter> parameters, final String name,
        final double defaultValue, final List<String> warnings)
    {
        final ModelParameter parameter = parameters.get(name);
        if (parameter == null)
        {
            return defaultValue;
        }
        try
        {
            return Double.parseDouble(parameter.getStringValue().strip());
        }
        catch (final NumberFormatException ex)
        {
            warnings.add(badInput(name, parameter, defaultValue));
            return defaultValue;
        }
    }

    /** rapids_triton falls back to a parameter's default when its value does not parse; so does this, saying so. */
    private static String badInput(final String name, final ModelParameter parameter, final Number defaultValue)
    {
        return "Bad input for parameter " + name + ": '" + parameter.getStringValue() + "' is not a number; using "
            + "the default " + defaultValue;
    }
}
