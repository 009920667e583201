package io.ingot.server.protocol;

import java.util.List;

/**
 * The protocol extensions the frontends implement, reported by server metadata in Triton's order (core
 * src/server.cc). perf_analyzer and other clients act on this list, so it names only what works: no sequence (no
 * sequence batcher yet), no CUDA shared memory, no {@code parameters} (custom request parameters are not passed to
 * models), no {@code model_repository(unload_dependents)} and no trace until those are implemented.
 */
public final class ServerExtensions
{
    /** In Triton's order. */
    public static final List<String> SUPPORTED = List.of(
        "classification",
        "model_repository",
        "schedule_policy",
        "model_configuration",
        "system_shared_memory",
        "binary_tensor_data",
        "statistics",
        "logging");

    private ServerExtensions()
    {
    }
}
