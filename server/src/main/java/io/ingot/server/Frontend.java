package io.ingot.server;

import io.ingot.api.InferenceCore;

/**
 * A way in to a running core that {@code ingot serve} starts: the KServe v2 HTTP and gRPC endpoints, the Prometheus
 * metrics endpoint, the shared-memory transport. Implementations live in other modules and are found with
 * {@link java.util.ServiceLoader}: register them in {@code META-INF/services/io.ingot.server.Frontend}. The command
 * line depends on none of them.
 *
 * <p>Lifecycle: {@code serve} opens the core, calls {@link #start} on every enabled frontend, and on shutdown stops
 * them as {@link RunningFrontend} describes: every frontend stops accepting, the core closes and answers what it
 * holds, every frontend delivers those answers, then every frontend closes.
 */
public interface Frontend
{
    /** @return a short name for messages, as {@code "kserve"} (HTTP, gRPC and metrics) and {@code "ipc"}. */
    String name();

    /**
     * @param options the command line's frontend options
     * @return true when these options ask for this frontend (for example the shared-memory transport only with
     *         {@code --ipc NAME}); true by default
     */
    default boolean isEnabled(final ServeOptions options)
    {
        return true;
    }

    /**
     * @param options the command line's frontend options
     * @return where it listens, for the start-up message ({@code "HTTP on 127.0.0.1:8000"}); the name by default
     */
    default String describe(final ServeOptions options)
    {
        return name();
    }

    /**
     * Starts serving. Returns once the frontend accepts requests.
     *
     * @param core    the running core
     * @param options ports, host and settings from the command line
     * @return the running frontend, to be stopped in {@link RunningFrontend}'s order
     * @throws Exception when it cannot start (a port in use, ...); {@code serve} then stops with the message
     */
    RunningFrontend start(InferenceCore core, ServeOptions options) throws Exception;
}
