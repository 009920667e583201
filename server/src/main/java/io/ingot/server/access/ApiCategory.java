package io.ingot.server.access;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The groups of endpoints that Triton's {@code --http-restricted-api} and {@code --grpc-restricted-protocol} can
 * restrict to clients that send a header, with Triton's names (restricted_features.h).
 */
public enum ApiCategory
{
    /** Server and model liveness and readiness. */
    HEALTH("health"),
    /** Server and model metadata. */
    METADATA("metadata"),
    /** Inference (and generate). */
    INFERENCE("inference"),
    /** System and CUDA shared-memory registration and status. */
    SHARED_MEMORY("shared-memory"),
    /** Model configuration. */
    MODEL_CONFIG("model-config"),
    /** Repository index, model load and unload. */
    MODEL_REPOSITORY("model-repository"),
    /** Statistics. */
    STATISTICS("statistics"),
    /** Trace settings. */
    TRACE("trace"),
    /** Log settings. */
    LOGGING("logging");

    private final String tritonName;

    ApiCategory(final String tritonName)
    {
        this.tritonName = tritonName;
    }

    /** @return the name Triton's command line uses ({@code "shared-memory"}) */
    public String tritonName()
    {
        return tritonName;
    }

    /**
     * @param name a name as Triton's command line writes it
     * @return the category, or {@code null} for an unknown name
     */
    public static ApiCategory fromTritonName(final String name)
    {
        for (final ApiCategory category : values())
        {
            if (category.tritonName.equals(name))
            {
                return category;
            }
        }
        return null;
    }

    /** @return every name, comma-separated, as Triton's help lists them */
    public static String allNames()
    {
        return Arrays.stream(values()).map(ApiCategory::tritonName).collect(Collectors.joining(", "));
    }
}
