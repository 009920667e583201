package io.ingot.api;

import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * How the core builds responses. Public only because the core lives in another package; applications never call
 * it. Not synchronized: the core fills each response on one thread at a time and publishes it when it delivers it.
 */
public final class ResponseAssembly
{
    private ResponseAssembly()
    {
    }

    /**
     * @param recycler receives the response when it is closed (may be {@code null})
     * @return a new, empty response
     */
    public static InferenceResponse newResponse(final Consumer<InferenceResponse> recycler)
    {
        return new InferenceResponse(recycler);
    }

    /**
     * Starts filling a (new or recycled) response for a request.
     *
     * @param response     the response
     * @param request      the request it answers
     * @param modelName    the model
     * @param modelVersion the version
     */
    public static void begin(final InferenceResponse response, final InferenceRequest request, final String modelName,
        final long modelVersion)
    {
        response.begin(request, modelName, modelVersion);
    }

    /**
     * Appends an output.
     *
     * @param response the response
     * @param name     output name
     * @param dataType element type
     * @param shape    shape values (copied)
     * @param rank     number of values of {@code shape} to use
     * @param data       the output's bytes, exactly
     * @param allocation the segment {@code owner} returned, which {@code data} is a slice of
     * @param owner      the allocator to release {@code allocation} to on close, or {@code null}
     */
    public static void addOutput(final InferenceResponse response, final String name, final DataType dataType,
        final long[] shape, final int rank, final MemorySegment data, final MemorySegment allocation,
        final ResponseAllocator owner)
    {
        response.addOutput().set(name, dataType, shape, rank, data, allocation, owner);
    }

    /**
     * Turns the response into an error, releasing any outputs already added.
     *
     * @param response the response
     * @param error    the error
     */
    public static void fail(final InferenceResponse response, final InferenceException error)
    {
        response.fail(error);
    }
}
