package io.ingot.server.protocol;

import java.util.List;

/**
 * The protocol extensions the frontends implement, reported by server metadata. perf_analyzer and other clients
 * act on this list, so it names only what works: no classification, sequence, CUDA shared memory or logging, and no
 * {@code parameters} (custom request parameters are not passed to models). {@code trace} is the settings endpoints
 * and TIMESTAMPS traces of HTTP inference.
 */
public final class ServerExtensions
{
    /** In Triton's order. */
    public static final List<String> SUPPORTED = List.of(
        "model_repository",
        "schedule_policy",
        "model_configuration",
        "system_shared_memory",
        "binary_tensor_data",
        "statistics",
        "trace");

    private ServerExtensions()
    {
    }
}
