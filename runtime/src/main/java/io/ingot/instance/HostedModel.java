package io.ingot.instance;

import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseAllocator;
import io.ingot.api.ResponseAssembly;
import io.ingot.config.proto.ModelConfig;
import io.ingot.dispatch.ModelScheduler;
import io.ingot.scheduler.PendingRequest;
import io.ingot.stats.ModelStatsRecorder;
import io.ingot.time.NanoClock;

import java.nio.file.Path;

/**
 * What the instances of one model version are built from, made by the core once per version: so that an instance
 * opens its responses and allocates their outputs itself, and calls back into the core only to hand each finished
 * response to {@link #delivery()}. Immutable; thread-safe as its parts are.
 *
 * @param name             the model's name
 * @param version          the version number
 * @param config           the normalized configuration
 * @param directory        the model's directory (where {@code initial_state/} files are), or {@code null} for an
 *                         in-memory model
 * @param stats            the version's statistics (a cell per instance, one shared)
 * @param responses        the core's pool of response objects
 * @param defaultAllocator output memory of requests that bring no allocator of their own
 * @param delivery         where each finished response goes
 * @param scheduler        the version's scheduler (whether the model is stopping)
 * @param clock            the core's clock
 */
public record HostedModel(String name, long version, ModelConfig config, Path directory, ModelStatsRecorder stats,
    ResponsePool responses, ResponseAllocator defaultAllocator, ResponseDelivery delivery, ModelScheduler scheduler,
    NanoClock clock)
{
    /**
     * @param request the request
     * @return a response begun for it (model, version, request id), without outputs
     */
    public InferenceResponse openResponse(final PendingRequest request)
    {
        final InferenceResponse response = responses.acquire();
        ResponseAssembly.begin(response, request.request, name, version);
        return response;
    }

    /**
     * @param request the request
     * @return the allocator for its outputs: its own, else the default
     */
    public ResponseAllocator allocatorFor(final PendingRequest request)
    {
        final ResponseAllocator own = request.request.responseAllocator();
        return own != null ? own : defaultAllocator;
    }

    /** @return whether the version is stopping (a decoupled engine may then end its streams early) */
    public boolean isStopping()
    {
        return scheduler.isStopping();
    }
}
