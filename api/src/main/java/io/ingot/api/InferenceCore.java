package io.ingot.api;

import io.ingot.config.proto.ModelConfig;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Ingot's in-process API: the entry point for applications that link Ingot in.
 *
 * <p>A core loads the models of its repositories, each with its own scheduler and instances, and serves requests
 * until {@link #close() closed}. Every accepted request gets exactly one final response, also on timeout,
 * cancellation, engine failure, model unload and shutdown. Errors found before a request is accepted (unknown model,
 * wrong tensor, batch too large, queue full, stopping) are thrown synchronously as {@link InferenceException}s.
 *
 * <pre>{@code
 * try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(path).build()))
 * {
 *     InferenceRequest request = new InferenceRequest("add_sub")
 *         .addInput("INPUT0", DataType.FP32, new long[] {1, 16}, a)
 *         .addInput("INPUT1", DataType.FP32, new long[] {1, 16}, b);
 *     try (InferenceResponse response = core.submit(request).join().throwIfError())
 *     {
 *         MemorySegment sum = response.output("OUTPUT0").data();
 *     }
 * }
 * }</pre>
 */
public interface InferenceCore extends AutoCloseable
{
    /**
     * Builds a core and loads its models. Models that fail to load are reported by {@link #repositoryIndex} with
     * their reason; they do not stop the others. The implementation is the {@link InferenceCoreProvider} on the class
     * path (the runtime module's).
     *
     * @param options where models come from, and thread behaviour
     * @return a running core
     * @throws IllegalStateException when no core implementation is on the class path
     */
    static InferenceCore open(final CoreOptions options)
    {
        return CoreProviders.provider().open(options);
    }

    /**
     * Submits a request; the listener receives its one response. Allocation-free in steady state.
     *
     * @param request  the request (in flight until the listener is called)
     * @param listener receives the response
     * @throws InferenceException when the request is rejected before acceptance
     */
    void submit(InferenceRequest request, ResponseListener listener);

    /**
     * Submits a request. The future always completes normally with the response, which may carry an error.
     *
     * @param request the request
     * @return the response, when it arrives
     * @throws InferenceException when the request is rejected before acceptance
     */
    CompletableFuture<InferenceResponse> submit(InferenceRequest request);

    /** @return server name, version and extensions. */
    ServerMetadata serverMetadata();

    /** @return true while the core runs. */
    boolean isLive();

    /** @return true while the core runs and every model that should be loaded is ready. */
    boolean isReady();

    /**
     * @param model   model name
     * @param version version, or {@link InferenceRequest#DEFAULT_VERSION}
     * @return whether that model version is loaded and serving
     */
    boolean isModelReady(String model, long version);

    /**
     * @param model   model name
     * @param version version, or {@link InferenceRequest#DEFAULT_VERSION}
     * @return its metadata
     * @throws InferenceException INVALID_ARG for an unknown model, NOT_FOUND for an unknown version
     */
    ModelMetadata modelMetadata(String model, long version);

    /**
     * @param model   model name
     * @param version version, or {@link InferenceRequest#DEFAULT_VERSION}
     * @return the normalized configuration the model runs with
     * @throws InferenceException INVALID_ARG for an unknown model, NOT_FOUND for an unknown version
     */
    ModelConfig modelConfig(String model, long version);

    /**
     * @param model   model name, or {@code null}/empty for every model
     * @param version version, or {@link InferenceRequest#DEFAULT_VERSION} for every loaded version
     * @return statistics, one entry per model version
     * @throws InferenceException INVALID_ARG for an unknown model, NOT_FOUND for an unknown version
     */
    List<ModelStatistics> modelStatistics(String model, long version);

    /**
     * @param readyOnly list only ready models
     * @return the models of the repositories and their states
     */
    List<ModelIndexEntry> repositoryIndex(boolean readyOnly);

    /**
     * Loads, or reloads, a model from the repositories. Requires {@link ModelControlMode#EXPLICIT}.
     *
     * @param model model name
     * @throws InferenceException when the mode forbids it or the model cannot be loaded (with the reason)
     */
    void loadModel(String model);

    /**
     * Unloads a model: it stops accepting requests; queued requests are answered UNAVAILABLE; executing batches
     * complete. Requires {@link ModelControlMode#EXPLICIT}.
     *
     * @param model model name
     * @throws InferenceException when the mode forbids it or the model is unknown
     */
    void unloadModel(String model);

    /**
     * Stops accepting requests, answers every queued request with UNAVAILABLE, lets executing batches finish, and
     * releases every model.
     */
    @Override
    void close();
}
