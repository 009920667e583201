package io.ingot.config;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelParameter;

import java.util.Locale;
import java.util.Map;

/**
 * Ingot's choice of batch-formation policy for one model, read from the configuration's {@code parameters} so that
 * the file stays loadable by Triton (which passes unknown parameters to the backend and ignores them otherwise):
 * <ul>
 *   <li>{@value #BATCHING}: {@code static} (the default: Triton's dynamic batcher as configured), {@code adaptive}
 *       (SLO-aware, learned execution times; see docs/adaptive-batching.md) or {@code aimd} (Clipper's
 *       additive-increase, multiplicative-decrease batch size);</li>
 *   <li>{@value #LATENCY_SLO}: the latency objective in microseconds, a positive whole number; required by
 *       {@code adaptive} (end to end: queue and execution) and {@code aimd} (one execution, as Clipper measures);</li>
 *   <li>{@value #PERCENTILE}: the share of requests, in percent, that must meet it ({@code adaptive}; default
 *       {@value #DEFAULT_PERCENTILE}), a number strictly between 0 and 100;</li>
 *   <li>{@value #AIMD_INCREASE} (a whole number {@code >= 1}, default 1) and {@value #AIMD_DECREASE} (a number strictly
 *       between 0 and 1, default {@value #DEFAULT_DECREASE}, Clipper's 10% back-off) ({@code aimd}).</li>
 * </ul>
 * The adaptive policies take the dynamic batcher's place, so they need a {@code dynamic_batching} block; they keep
 * its priority levels and queue policies and ignore its preferred sizes and queue delay. Immutable.
 *
 * @param kind         the chosen policy
 * @param sloMicros    the latency objective in microseconds (0 with {@link Kind#STATIC})
 * @param percentile   the objective's percentile
 * @param aimdIncrease the AIMD additive step
 * @param aimdDecrease the AIMD multiplicative factor
 */
public record BatchingParameters(Kind kind, long sloMicros, double percentile, int aimdIncrease,
    double aimdDecrease)
{
    /** Parameter key of the policy choice. */
    public static final String BATCHING = "ingot.batching";
    /** Parameter key of the latency objective, microseconds. */
    public static final String LATENCY_SLO = "ingot.latency_slo_us";
    /** Parameter key of the objective's percentile. */
    public static final String PERCENTILE = "ingot.slo_percentile";
    /** Parameter key of the AIMD additive step. */
    public static final String AIMD_INCREASE = "ingot.aimd_increase";
    /** Parameter key of the AIMD multiplicative factor. */
    public static final String AIMD_DECREASE = "ingot.aimd_decrease";
    /** The percentile when none is configured. */
    public static final double DEFAULT_PERCENTILE = 99;
    /** The AIMD decrease factor when none is configured. */
    public static final double DEFAULT_DECREASE = 0.9;

    private static final BatchingParameters STATIC = new BatchingParameters(Kind.STATIC, 0, DEFAULT_PERCENTILE, 1,
        DEFAULT_DECREASE);

    /** The batch-formation policies a model can choose. */
    public enum Kind
    {
        /** Triton's dynamic batcher (or its default scheduler), as the configuration says. */
        STATIC,
        /** The SLO-aware adaptive policy. */
        ADAPTIVE,
        /** Clipper's AIMD batch sizing. */
        AIMD;

        /** @return the value as written in the configuration */
        public String value()
        {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Reads and checks a configuration's batching parameters.
     *
     * @param config a model configuration
     * @return its choice ({@link Kind#STATIC} when it names none)
     * @throws ConfigException naming the model and the parameter, when a value is malformed, out of range, missing,
     *                         or set where it has no effect
     */
    public static BatchingParameters of(final ModelConfig config) throws ConfigException
    {
        final Map<String, ModelParameter> parameters = config.getParametersMap();
        final String m = "model '" + config.getName() + "': ";
        final String chosen = text(parameters, BATCHING);
        final Kind kind;
        if (chosen == null || chosen.equals("static"))
        {
            kind = Kind.STATIC;
        }
        else if (chosen.equals("adaptive"))
        {
            kind = Kind.ADAPTIVE;
        }
        else if (chosen.equals("aimd"))
        {
            kind = Kind.AIMD;
        }
        else
        {
            throw ConfigException.invalid(m + "parameter '" + BATCHING + "' must be 'static', 'adaptive' or 'aimd', "
                + "got '" + chosen + "'");
        }
        if (kind == Kind.STATIC)
        {
            for (final String key : new String[] {LATENCY_SLO, PERCENTILE, AIMD_INCREASE, AIMD_DECREASE})
            {
                onlyWith(parameters, key, "'adaptive' or 'aimd'", m);
            }
            return STATIC;
        }
        if (!config.hasDynamicBatching())
        {
            throw ConfigException.invalid(m + "parameter '" + BATCHING + "' is '" + kind.value() + "', which forms "
                + "batches in the dynamic batcher's place, but the model has no dynamic_batching: add "
                + "'dynamic_batching { }' (its priority levels and queue policies apply) or remove the parameter");
        }
        final String slo = text(parameters, LATENCY_SLO);
        if (slo == null)
        {
            throw ConfigException.invalid(m + "parameter '" + LATENCY_SLO + "' is required with '" + BATCHING + "' "
                + kind.value() + ": the latency objective in microseconds");
        }
        final long sloMicros = positiveWhole(slo, LATENCY_SLO, "a positive whole number of microseconds", m);
        if (kind == Kind.ADAPTIVE)
        {
            onlyWith(parameters, AIMD_INCREASE, "'aimd'", m);
            onlyWith(parameters, AIMD_DECREASE, "'aimd'", m);
            final String percentileText = text(parameters, PERCENTILE);
            double percentile = DEFAULT_PERCENTILE;
            if (percentileText != null)
            {
                percentile = number(percentileText, PERCENTILE, 0, 100, "a number between 0 and 100, exclusive (99 "
                    + "for p99)", m);
            }
            return new BatchingParameters(kind, sloMicros, percentile, 1, DEFAULT_DECREASE);
        }
        onlyWith(parameters, PERCENTILE, "'adaptive'", m);
        final String increaseText = text(parameters, AIMD_INCREASE);
        final long increase = increaseText == null ? 1
            : positiveWhole(increaseText, AIMD_INCREASE, "a positive whole number (batch size added per batch)", m);
        final String decreaseText = text(parameters, AIMD_DECREASE);
        final double decrease = decreaseText == null ? DEFAULT_DECREASE
            : number(decreaseText, AIMD_DECREASE, 0, 1, "a number between 0 and 1, exclusive (0.9 cuts by 10%)", m);
        return new BatchingParameters(kind, sloMicros, DEFAULT_PERCENTILE, (int)Math.min(Integer.MAX_VALUE, increase),
            decrease);
    }

    /**
     * @return the policy's settings, for tables: {@code SLO 10000us at p99} (adaptive), {@code SLO 10000us, +1 x0.9}
     *         (aimd), empty for static
     */
    public String settingsText()
    {
        return switch (kind)
        {
            case STATIC -> "";
            case ADAPTIVE -> "SLO " + sloMicros + "us at p" + trim(percentile);
            case AIMD -> "SLO " + sloMicros + "us, +" + aimdIncrease + " x" + trim(aimdDecrease);
        };
    }

    private static String trim(final double value)
    {
        return value == Math.rint(value) ? Long.toString((long)value) : Double.toString(value);
    }

    private static String text(final Map<String, ModelParameter> parameters, final String key)
    {
        final ModelParameter parameter = parameters.get(key);
        return parameter == null ? null : parameter.getStringValue().trim();
    }

    private static void onlyWith(final Map<String, ModelParameter> parameters, final String key, final String kinds,
        final String m) throws ConfigException
    {
        if (parameters.containsKey(key))
        {
            throw ConfigException.invalid(m + "parameter '" + key + "' applies only with parameter '" + BATCHING
                + "' set to " + kinds + "; set it, or remove '" + key + "'");
        }
    }

    private static long positiveWhole(final String text, final String key, final String expected, final String m)
        throws ConfigException
    {
        try
        {
            final long value = Long.parseLong(text);
            if (value > 0)
            {
                return value;
            }
        }
        catch (final NumberFormatException ex)
        {
            // reported below
        }
        throw ConfigException.invalid(m + "parameter '" + key + "' must be " + expected + ", got '" + text + "'");
    }

    private static double number(final String text, final String key, final double low, final double high,
        final String expected, final String m) throws ConfigException
    {
        try
        {
            final double value = Double.parseDouble(text);
            if (value > low && value < high)
            {
                return value;
            }
        }
        catch (final NumberFormatException ex)
        {
            // reported below
        }
        throw ConfigException.invalid(m + "parameter '" + key + "' must be " + expected + ", got '" + text + "'");
    }
}
