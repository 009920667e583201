package io.ingot.client;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What the HTTP and the gRPC client have in common, for code that chooses its transport by configuration. The
 * metadata, configuration and statistics calls stay on each client: they return the transport's own form (JSON, or
 * protobuf messages), as Triton's clients do. Implementations are thread-safe.
 */
public interface InferenceClient extends AutoCloseable
{
    /** @return whether the server is live */
    boolean isServerLive();

    /** @return whether the server is ready */
    boolean isServerReady();

    /**
     * @param model   the model's name
     * @param version its version, or "" for any
     * @return whether it is ready
     */
    boolean isModelReady(String model, String version);

    /**
     * @param model  the model's name
     * @param config a JSON configuration to load it with, or null for the repository's
     */
    void loadModel(String model, String config);

    /**
     * @param model            the model's name
     * @param unloadDependents whether an ensemble's models are unloaded with it
     */
    void unloadModel(String model, boolean unloadDependents);

    /**
     * @param name     the name requests will use
     * @param key      the POSIX shared-memory object's key, {@code /name}
     * @param byteSize the registered part's size
     * @param offset   where it starts in the object
     */
    void registerSystemSharedMemory(String name, String key, long byteSize, long offset);

    /** @param name the region to unregister, or null or "" for every region */
    void unregisterSystemSharedMemory(String name);

    /**
     * Runs one inference and waits for its result.
     *
     * @param model   the model's name
     * @param inputs  its inputs
     * @param outputs the outputs to return (empty: every output)
     * @param options the request's options
     * @return the result
     * @throws InferenceServerException the server's error with its status, or the transport's
     */
    InferResult infer(String model, List<InferInput> inputs, List<InferRequestedOutput> outputs, InferOptions options);

    /**
     * Starts one inference without blocking; the future completes with the result or an
     * {@link InferenceServerException}.
     *
     * @param model   the model's name
     * @param inputs  its inputs (encoded before this returns, so they may be reused at once)
     * @param outputs the outputs to return
     * @param options the request's options
     * @return the result to come
     */
    CompletableFuture<InferResult> inferAsync(String model, List<InferInput> inputs,
        List<InferRequestedOutput> outputs, InferOptions options);

    /** Releases the connections, waiting for calls in flight. */
    @Override
    void close();
}
