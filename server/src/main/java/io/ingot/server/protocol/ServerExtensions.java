package io.ingot.server.protocol;

import java.util.List;

/**
 * The protocol extensions the frontends implement, reported by server metadata in Triton's order (core
 * src/server.cc). perf_analyzer and other clients act on this list, so it names only what works: every extension
 * Triton's core lists but {@code cuda_shared_memory} (CUDA shared-memory regions are not registered by the
 * frontends). {@code parameters}: a request's custom parameters reach the model ({@code BatchRequest.parameters()},
 * Python's {@code request.parameters()}); {@code model_repository(unload_dependents)}: an unload can take the
 * ensembles' composing models with it. {@code trace} is the settings endpoints and TIMESTAMPS traces of HTTP
 * inference.
 */
public final class ServerExtensions
{
    /** In Triton's order. */
    public static final List<String> SUPPORTED = List.of(
        "classification",
        "sequence",
        "sequence(string_id)",
        "model_repository",
        "model_repository(unload_dependents)",
        "schedule_policy",
        "model_configuration",
        "system_shared_memory",
        "binary_tensor_data",
        "parameters",
        "statistics",
        "trace",
        "logging");

    private ServerExtensions()
    {
    }
}
