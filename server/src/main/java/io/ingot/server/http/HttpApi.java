package io.ingot.server.http;

import io.ingot.api.InferenceCore;
import io.ingot.server.access.RestrictedApis;
import io.ingot.server.shm.SystemSharedMemoryRegistry;
import io.ingot.server.trace.TraceManager;

import java.util.concurrent.ExecutorService;

/**
 * What every HTTP connection's handler shares: the core, the shared-memory registry, the endpoint logic, an
 * executor for calls that may block (model load and unload), which must never run on an event loop, the memory
 * budget of request bodies, the restricted endpoints, and the drain state of a graceful stop.
 *
 * @param core             the core
 * @param sharedMemory     registered regions
 * @param control          the non-inference endpoints
 * @param decoder          the infer request decoder
 * @param blockingExecutor where blocking calls run
 * @param inputLimit       Triton's {@code --http-max-input-size} rule
 * @param budget           the memory all request bodies may hold
 * @param restricted       endpoints restricted to a header
 * @param drain            requests not yet answered, for a graceful stop
 * @param tracer           the core's trace settings and sampling
 */
record HttpApi(InferenceCore core, SystemSharedMemoryRegistry sharedMemory, HttpControlEndpoints control,
    HttpInferDecoder decoder, ExecutorService blockingExecutor, HttpInputLimit inputLimit, RequestBodyBudget budget,
    RestrictedApis restricted, HttpDrain drain, TraceManager tracer)
{
    /**
     * @param core             the core
     * @param sharedMemory     registered regions
     * @param blockingExecutor where blocking calls run
     * @param inputLimit       Triton's {@code --http-max-input-size} rule
     * @param budget           the memory all request bodies may hold
     * @param restricted       endpoints restricted to a header
     * @return the shared state
     */
    static HttpApi of(final InferenceCore core, final SystemSharedMemoryRegistry sharedMemory,
        final ExecutorService blockingExecutor, final HttpInputLimit inputLimit, final RequestBodyBudget budget,
        final RestrictedApis restricted)
    {
        return new HttpApi(core, sharedMemory, new HttpControlEndpoints(core, sharedMemory),
            new HttpInferDecoder(core, sharedMemory, inputLimit), blockingExecutor, inputLimit, budget, restricted,
            new HttpDrain(), TraceManager.forCore(core));
    }
}
