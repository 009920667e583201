package io.ingot.core;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.config.ConfigException;

import java.util.Map;
import java.util.NavigableMap;

/**
 * How a failed model load reads in Triton's repository index and load response: each version's reason is Triton's
 * {@code Status::AsString} ({@code "<Code>: <message>"}, the code as Triton names it), and the load's own message
 * lists every failed version as Triton's load tracker does ({@code "version 1 is at UNAVAILABLE state: <reason>;"}).
 * Stateless.
 */
final class LoadFailures
{
    private LoadFailures()
    {
    }

    /**
     * @param failure why a version failed to load
     * @return {@code "<Code>: <message>"}: the code of an {@link InferenceException} or {@link ConfigException},
     *         Invalid argument for an {@link IllegalArgumentException} (a configuration the engine's model does not
     *         match), Internal otherwise
     */
    static String statusText(final Exception failure)
    {
        final String message = failure.getMessage() == null ? failure.toString() : failure.getMessage();
        return code(failure).statusText() + ": " + message;
    }

    /**
     * @param failures each failed version's {@link #statusText}, by version
     * @return Triton's summary of the load, one clause per failed version
     */
    static String summary(final NavigableMap<Long, String> failures)
    {
        final StringBuilder summary = new StringBuilder();
        for (final Map.Entry<Long, String> failure : failures.entrySet())
        {
            summary.append("version ").append(failure.getKey()).append(" is at UNAVAILABLE state: ")
                .append(failure.getValue()).append(';');
        }
        return summary.toString();
    }

    private static ErrorCode code(final Exception failure)
    {
        return switch (failure)
        {
            case InferenceException inference -> inference.code();
            case ConfigException config -> switch (config.category())
            {
                case INVALID_ARG -> ErrorCode.INVALID_ARG;
                case NOT_FOUND -> ErrorCode.NOT_FOUND;
                case INTERNAL -> ErrorCode.INTERNAL;
            };
            case IllegalArgumentException illegal -> ErrorCode.INVALID_ARG;
            default -> ErrorCode.INTERNAL;
        };
    }
}
