package io.ingot.instance;

import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseAllocator;
import io.ingot.config.proto.ModelConfig;
import io.ingot.scheduler.PendingRequest;
import io.ingot.stats.ModelStatsRecorder;

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
     * bookkeeping.
     *
     * @param request  the request
     * @param response its response (outputs or error)
     */
    void deliver(PendingRequest request, InferenceResponse response);

    /**
     * @return the model's directory (where {@code initial_state/} files are), or {@code null} for an in-memory model
     */
    default java.nio.file.Path modelDirectory()
    {
        return null;
    }
}
