package io.ingot.server.http;

import io.ingot.api.InferenceCore;
import io.ingot.server.shm.SystemSharedMemoryRegistry;

import java.util.concurrent.ExecutorService;

/**
 * What every HTTP connection's handler shares: the core, the shared-memory registry, the endpoint logic, and an
 * executor for calls that may block (model load and unload), which must never run on an event loop.
 *
 * @param core             the core
 * @param sharedMemory     registered regions
 * @param control          the non-inference endpoints
 * @param decoder          the infer request decoder
 * @param blockingExecutor where blocking calls run
 * @param maxBodyBytes     the largest (decompressed) request body accepted
 */
record HttpApi(InferenceCore core, SystemSharedMemoryRegistry sharedMemory, HttpControlEndpoints control,
    HttpInferDecoder decoder, ExecutorService blockingExecutor, int maxBodyBytes)
{
    /**
     * @param core             the core
     * @param sharedMemory     registered regions
     * @param blockingExecutor where blocking calls run
     * @param maxBodyBytes     the largest request body accepted
     * @return the shared state
     */
    static HttpApi of(final InferenceCore core, final SystemSharedMemoryRegistry sharedMemory,
        final ExecutorService blockingExecutor, final int maxBodyBytes)
    {
        return new HttpApi(core, sharedMemory, new HttpControlEndpoints(core, sharedMemory),
            new HttpInferDecoder(core, sharedMemory), blockingExecutor, maxBodyBytes);
    }
}
