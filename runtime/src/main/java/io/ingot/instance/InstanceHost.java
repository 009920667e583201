package io.ingot.instance;

import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseAllocator;
import io.ingot.config.proto.ModelConfig;
import io.ingot.scheduler.PendingRequest;
import io.ingot.stats.ModelStatsRecorder;
import io.ingot.time.NanoClock;

/**
 * What an instance needs from the model version it belongs to. Called from instance threads; implementations are
 * thread-safe.
 */
public interface InstanceHost
{
    /** @return the model's name. */
    String modelName();

    /** @return the version number. */
    long version();

    /** @return the normalized configuration. */
    ModelConfig config();

    /** @return the statistics of this version. */
    ModelStatsRecorder stats();

    /** @return the core's clock */
    NanoClock clock();

    /**
     * @param request the request
     * @return a response begun for it, without outputs
     */
    InferenceResponse openResponse(PendingRequest request);

    /**
     * @param request the request
     * @return the allocator for its outputs
     */
    ResponseAllocator allocatorFor(PendingRequest request);

    /**
     * Delivers a finished response (in order, when the model preserves ordering) and recycles the request's
     * bookkeeping. For a decoupled model it is the request's final; {@code null} for a flags-only final.
     *
     * @param request  the request
     * @param response its response (outputs or error), or {@code null} for a decoupled model's flags-only final
     */
    void deliver(PendingRequest request, InferenceResponse response);

    /**
     * Delivers one response of a decoupled model's request that is not its final: straight to its listener, on
     * this thread. The request stays in flight.
     *
     * @param request  the request
     * @param response the response (outputs or error)
     */
    default void deliverPartial(final PendingRequest request, final InferenceResponse response)
    {
        throw new UnsupportedOperationException("model '" + modelName() + "' does not stream responses");
    }

    /** @return whether the model version is stopping (a decoupled engine may then end its streams early) */
    default boolean isStopping()
    {
        return false;
    }

    /**
     * @return the model's directory (where {@code initial_state/} files are), or {@code null} for an in-memory model
     */
    default java.nio.file.Path modelDirectory()
    {
        return null;
    }
}
