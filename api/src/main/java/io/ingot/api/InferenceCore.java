package io.ingot.api;

import io.ingot.config.proto.ModelConfig;
import io.ingot.metrics.CustomMetrics;
import io.ingot.time.NanoClock;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Ingot's in-process API: the entry point for applications that link Ingot in.
 *
 * <p>A core loads the models of its repositories, each version with its own scheduler and instances, and serves
 * requests until {@link #close() closed}. Every accepted request gets exactly one final response, also on timeout,
 * cancellation, engine failure, model unload and shutdown. Errors found before a request is accepted (unknown model,
 * wrong tensor, batch too large, queue full, stopping) are thrown synchronously as {@link InferenceException}s, and
 * such a request gets no response.
 *
 * <p>Threads: every method may be called from any number of threads at once. {@code submit} validates the request on
 * the calling thread and hands it to the model's scheduler without taking a lock; {@link #loadModel},
 * {@link #unloadModel} and {@link #close} are serialized with each other. Responses are delivered on Ingot's
 * threads, never inside {@code submit}: the instance thread that executed the request's batch (with
 * {@code preserve_ordering}, possibly another instance thread of the same model, whichever delivers the responses
 * in order); for a request ended without executing, the thread that ended it — an instance thread or the core's
 * timekeeper for a queue timeout or a cancellation, and for a request still queued when its model stops, the thread
 * calling {@link #close}, {@link #unloadModel} or {@link #loadModel} (or an instance thread). The listener is called
 * directly, with no lock held. {@link #close}, {@link #unloadModel} and {@link #loadModel} (which replaces a loaded
 * model) wait for the model's threads to finish, so they must not be called from a {@link ResponseListener} or from
 * a dependent stage of a future that {@link #submit(InferenceRequest)} returned. The exception is the explicit
 * opt-in {@link #submitAndRun}: it may run the batch, and so deliver responses, on the calling thread.
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
     * Builds a core and loads its models on the calling thread; returns when every model has loaded or failed to.
     * Models that fail to load are reported by {@link #repositoryIndex} with their reason; they do not stop the
     * others. The implementation is the first {@link InferenceCoreProvider} on the class path (the runtime module's).
     * The caller owns the core and must {@link #close()} it.
     *
     * @param options where models come from, and thread behaviour
     * @return a running core
     * @throws IllegalStateException when no core implementation is on the class path, or when the JVM denies native
     *                               access ({@code --illegal-native-access=deny}): the message names the flag to add,
     *                               {@code --enable-native-access=ALL-UNNAMED}, the one JVM flag Ingot needs
     * @throws InferenceException    INVALID_ARG when a model repository cannot be read
     */
    static InferenceCore open(final CoreOptions options)
    {
        return CoreProviders.provider().open(options);
    }

    /**
     * Submits a request; the listener receives its one response, exactly once, on an Ingot thread (see the class
     * comment). Allocation-free in steady state.
     *
     * <p>From a successful return until the listener is called the request is in flight: it must not be changed, and
     * its input memory must stay valid and unchanged ({@link InferenceRequest}). The request is no longer in flight
     * when the listener runs, so the listener may refill and submit it again. The listener owns the response and
     * must close it; an exception it throws is logged and otherwise ignored.
     *
     * @param request  the request (in flight until the listener is called)
     * @param listener receives the response
     * @throws InferenceException       when the request is rejected before acceptance: INVALID_ARG for an unknown
     *                                  model or a request that does not match the model's configuration, NOT_FOUND
     *                                  for an unknown version, UNAVAILABLE for a model with no loaded version, a full
     *                                  queue or a stopping core; {@link DecoupledModelException} (UNSUPPORTED) for
     *                                  a decoupled model, whose zero or many responses need
     *                                  {@link #submit(InferenceRequest, ResponseStreamListener)}
     * @throws IllegalStateException    when the request is already in flight
     * @throws IllegalArgumentException when {@code listener} is {@code null}
     */
    void submit(InferenceRequest request, ResponseListener listener);

    /**
     * Submits a request as {@link #submit(InferenceRequest, ResponseListener)} does and, when an instance of the model
     * is idle and its engine may run on any thread ({@link io.ingot.backend.Engine#runsOnAnyThread()}), runs the
     * request's batch on the calling thread before returning: the request then costs no wake-up of an instance thread.
     * So the listener may be called inside this call, on this thread — and this thread may also deliver the
     * responses of other callers' requests that joined the batch, or that the model ended meanwhile (a queue timeout,
     * a cancellation). When every instance is busy, or the model is decoupled, sequence-batched, rate-limited or its
     * engine needs its own thread, this is exactly {@code submit}: the response comes on an Ingot thread.
     *
     * <p>For a caller that reads a request and waits for its answer anyway: a frontend's reading thread (Ingot's
     * shared-memory server uses it), or a blocking caller ({@link #infer}). The listener must not block on this
     * thread's own progress, and must not call {@link #close}, {@link #unloadModel} or {@link #loadModel}. Refusals
     * are thrown as by {@code submit}, before the request is accepted; after that nothing is thrown: an engine
     * failure fails the batch and reaches the listener as its response's error.
     *
     * @param request  the request (in flight until the listener is called, possibly before this returns)
     * @param listener receives the response, on this thread or an Ingot thread
     * @throws InferenceException       as {@link #submit(InferenceRequest, ResponseListener)} does
     * @throws IllegalStateException    when the request is already in flight
     * @throws IllegalArgumentException when {@code listener} is {@code null}
     */
    default void submitAndRun(final InferenceRequest request, final ResponseListener listener)
    {
        submit(request, listener);
    }

    /**
     * Runs a request and waits for its response: {@link #submitAndRun} with {@code waiter} as the listener, then
     * {@link ResponseFuture#await()}. With an idle instance the batch runs on this thread and the response is here on
     * return without any thread being woken; otherwise the caller waits as {@code ResponseFuture} does (spins briefly,
     * then parks). Allocation-free.
     *
     * @param request the request
     * @param waiter  a future with no request in flight (reset here)
     * @return the response, which may carry an error; the caller owns it and must close it
     * @throws InferenceException    when the request is refused before acceptance (as for {@code submit})
     * @throws IllegalStateException when the request is already in flight
     */
    default InferenceResponse infer(final InferenceRequest request, final ResponseFuture waiter)
    {
        waiter.reset();
        submitAndRun(request, waiter);
        return waiter.await();
    }

    /**
     * {@link #infer(InferenceRequest, ResponseFuture)} with a new future (one allocation per call).
     *
     * @param request the request
     * @return the response, which may carry an error; the caller owns it and must close it
     * @throws InferenceException    when the request is refused before acceptance
     * @throws IllegalStateException when the request is already in flight
     */
    default InferenceResponse infer(final InferenceRequest request)
    {
        return infer(request, new ResponseFuture());
    }

    /**
     * Submits a request whose responses arrive one by one, each with its final flag (see
     * {@link ResponseStreamListener}): the form for decoupled models ({@code model_transaction_policy { decoupled:
     * true }}), which send zero or many responses per request. A non-decoupled model's request gets its one response
     * with {@code last == true}. Validation, acceptance, threads and the request's flight are as for
     * {@link #submit(InferenceRequest, ResponseListener)}; the flight ends when the final call is made.
     *
     * @param request  the request (in flight until the listener's final call)
     * @param listener receives every response
     * @throws InferenceException       as {@link #submit(InferenceRequest, ResponseListener)} does
     * @throws IllegalStateException    when the request is already in flight
     * @throws IllegalArgumentException when {@code listener} is {@code null}
     */
    void submit(InferenceRequest request, ResponseStreamListener listener);

    /**
     * Submits a request. The future always completes normally with the response, which may carry an error; it is
     * completed on an Ingot thread, so dependent stages attached with the non-async methods run there and must be
     * short and must not block (use the {@code *Async} methods otherwise). Whoever takes the response from the
     * future owns it and must close it. Allocates the future per call; {@link #submit(InferenceRequest,
     * ResponseListener)} is the allocation-free form.
     *
     * @param request the request (in flight until the future completes)
     * @return the response, when it arrives
     * @throws InferenceException    when the request is rejected before acceptance (as for the listener form)
     * @throws IllegalStateException when the request is already in flight
     */
    CompletableFuture<InferenceResponse> submit(InferenceRequest request);

    /**
     * Submits many requests at once (see {@link InferenceBatch}): each is validated as by
     * {@link #submit(InferenceRequest, ResponseListener)}, but one that is refused gets its error as its response
     * instead of an exception, and each run of requests for one model version is handed to its scheduler with one
     * ring claim and one fence. The listener is called once, when every request has its response (see
     * {@link BatchListener} for the thread). This default submits the requests one by one; the runtime's core
     * overrides it.
     *
     * @param batch    the requests, in flight until the batch is done
     * @param listener receives the done batch ({@link BatchListener#NONE} to {@link InferenceBatch#await()} it)
     * @throws InferenceException       INVALID_ARG for an empty batch (nothing is in flight)
     * @throws IllegalStateException    when the batch is in flight, or done and not cleared
     * @throws IllegalArgumentException when {@code listener} is {@code null}
     */
    default void submit(final InferenceBatch batch, final BatchListener listener)
    {
        batch.submitThrough(listener, (requests, from, to) ->
        {
            for (int i = from; i < to; i++)
            {
                try
                {
                    submit(requests.request(i), requests.listener(i));
                }
                catch (final RuntimeException refused)
                {
                    requests.refuse(i, refused);
                }
            }
        });
    }

    /** @return server name, version and extensions. */
    ServerMetadata serverMetadata();

    /**
     * @return how this core's threads wait for work ({@link CoreOptions#idleMode()}); servers started over the core,
     *         such as the shared-memory server, wait the same way unless told otherwise
     */
    default IdleMode idleMode()
    {
        return IdleMode.BLOCKING;
    }

    /**
     * @return the clock this core's threads read ({@link CoreOptions#clock()}); servers started over the core, such as
     *         the shared-memory server, read it too
     */
    default NanoClock clock()
    {
        return NanoClock.SYSTEM;
    }

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
     * @return its metadata (an immutable record)
     * @throws InferenceException INVALID_ARG for an unknown model, NOT_FOUND for an unknown version, UNAVAILABLE for
     *                            a model with no loaded version
     */
    ModelMetadata modelMetadata(String model, long version);

    /**
     * @param model   model name
     * @param version version, or {@link InferenceRequest#DEFAULT_VERSION}
     * @return the normalized configuration the model runs with (an immutable protobuf message)
     * @throws InferenceException INVALID_ARG for an unknown model, NOT_FOUND for an unknown version, UNAVAILABLE for
     *                            a model with no loaded version
     */
    ModelConfig modelConfig(String model, long version);

    /**
     * The class labels of an output, read when the model loaded from the file its configuration names in
     * {@code label_filename} (one label per line, in the model directory), as Triton's classification extension
     * uses them: label {@code i} names class index {@code i}.
     *
     * @param model   model name
     * @param version version, or {@link InferenceRequest#DEFAULT_VERSION}
     * @param output  the output's name
     * @return the labels, immutable; empty when the output has no {@code label_filename} (or is unknown)
     * @throws InferenceException as {@link #modelConfig} does for an unknown model or version
     */
    default List<String> outputLabels(final String model, final long version, final String output)
    {
        modelConfig(model, version);
        return List.of();
    }

    /**
     * @param model   model name, or {@code null}/empty for every model
     * @param version version, or {@link InferenceRequest#DEFAULT_VERSION} for every loaded version
     * @return statistics, one entry per model version: a snapshot taken now, immutable
     * @throws InferenceException INVALID_ARG for an unknown model, NOT_FOUND for an unknown version, UNAVAILABLE for
     *                            a model with no loaded version when a version is given
     */
    List<ModelStatistics> modelStatistics(String model, long version);

    /**
     * The models of the repositories and their states, as Triton's repository index reports them: one entry per
     * loaded version ({@code READY}, or {@code UNLOADING} while it stops); for a model whose versions were unloaded
     * or failed to load, one {@code UNAVAILABLE} entry per version, with {@code "unloaded"} or the failure as Triton
     * words it ({@code "<Code>: <message>"}, e.g. {@code "Internal: ..."}; when one version fails, the versions that
     * loaded are unloaded again); for any other model with no loaded version one entry without version:
     * {@code LOADING} while it loads for the first time, {@code UNLOADING} while it stops, {@code UNAVAILABLE} with
     * the reason its configuration failed (Triton lists such a model with its name only; Ingot gives the reason),
     * {@code UNAVAILABLE} with {@code "model appears in two or more repositories"} for a name found in more than one
     * repository; and an entry with only the name (empty version and state) for a model directory that was never
     * loaded. The repository directories are listed on the calling thread (not parsed).
     *
     * @param readyOnly list only ready versions
     * @return a snapshot, by name
     */
    List<ModelIndexEntry> repositoryIndex(boolean readyOnly);

    /**
     * Loads, or reloads, a model from the repositories, on the calling thread: {@link #loadModel(String,
     * ModelLoadOverrides)} without overrides.
     *
     * @param model model name
     * @throws InferenceException as {@link #loadModel(String, ModelLoadOverrides)} does
     */
    default void loadModel(final String model)
    {
        loadModel(model, ModelLoadOverrides.NONE);
    }

    /**
     * Loads, or reloads, a model on the calling thread, from the repositories or with the given configuration and
     * files ({@link ModelLoadOverrides}). Requires {@link ModelControlMode#EXPLICIT}. A reload loads the new versions
     * while the old ones keep serving, swaps them in once they have loaded, then stops the old ones as
     * {@link #unloadModel} does; when the new load fails, the old versions keep serving. A load without overrides
     * always reads the repository again, so it also undoes an earlier override.
     *
     * @param model     model name
     * @param overrides what replaces the repository's configuration or files; {@link ModelLoadOverrides#NONE} for
     *                  nothing
     * @throws InferenceException UNAVAILABLE when the mode forbids it ("explicit model load / unload is not allowed
     *                            if polling is enabled", Triton's text) or the core is closing; INVALID_ARG for a bad
     *                            name, a file path leaving the model directory, overrides of more bytes than
     *                            {@link CoreOptions#maxModelOverrideBytes()}, or versions that fail to load
     *                            ("load failed for model ..."); INTERNAL, as Triton, for a model that cannot be
     *                            read: not in the repositories, a configuration or a {@code config} override that
     *                            fails, files without {@code config}, an override that cannot be written ("failed
     *                            to load '<m>', failed to poll from model repository: " and the reason)
     */
    void loadModel(String model, ModelLoadOverrides overrides);

    /**
     * Unloads a model: {@link #unloadModel(String, boolean)} without its dependents.
     *
     * @param model model name
     * @throws InferenceException as {@link #unloadModel(String, boolean)} does
     */
    default void unloadModel(final String model)
    {
        unloadModel(model, false);
    }

    /**
     * Unloads a model: it stops accepting requests; queued requests are answered UNAVAILABLE; batches already formed
     * execute and are answered. Returns once that is done and the model's engines and backend are closed. Requires
     * {@link ModelControlMode#EXPLICIT}. As in Triton, unloading a model that is not loaded succeeds and changes
     * nothing.
     *
     * @param model            model name
     * @param unloadDependents also unload the models it is built from (an ensemble's composing models: Triton's
     *                         {@code unload_dependents}); no model is built from others yet, because ensembles are
     *                         not supported, so today this changes nothing
     * @throws InferenceException UNAVAILABLE when the mode forbids it (Triton's text, as for load)
     */
    void unloadModel(String model, boolean unloadDependents);

    /**
     * The metrics this core's models define for themselves (Triton's custom metrics, a Python model's
     * {@code pb_utils.MetricFamily}), which the server's metrics port exports beside Triton's own families. One
     * registry per core, for its whole life; a model's metrics leave it when the model lets go of them (at unload).
     *
     * @return the registry, thread-safe
     */
    CustomMetrics customMetrics();

    /**
     * Stops accepting requests, answers every queued request with UNAVAILABLE, lets batches already formed execute
     * and be answered, and releases every model (engines, then backends). Returns when that is done, so every
     * accepted request has had its response delivered; later calls of {@code submit} throw UNAVAILABLE. Idempotent.
     */
    @Override
    void close();
}
