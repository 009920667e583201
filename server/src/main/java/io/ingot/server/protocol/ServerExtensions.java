package io.ingot.server.protocol;

import java.util.List;

/**
 * The protocol extensions the frontends implement, reported by server metadata in Triton's order (core
 * src/server.cc). perf_analyzer and other clients act on this list, so it names only what works: no CUDA shared
 * memory, no {@code parameters} (custom request parameters are not passed to models), no
 * {@code model_repository(unload_dependents)} (there are no ensembles to unload with a model yet). {@code trace} is the
 * settings endpoints and TIMESTAMPS traces of HTTP inference.
 */
public final class ServerExtensions
{
    /** In Triton's order. */
    public static final List<String> SUPPORTED = List.of(
        "classification",
        "sequence",
        "sequence(string_id)",
        "model_repository",
        "schedule_policy",
        "model_configuration",
        "system_shared_memory",
        "binary_tensor_data",
        "statistics",
        "trace",
        "logging");

    private ServerExtensions()
    {
    }
}
