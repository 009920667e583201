package io.ingot.api;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The final response to one request: its output tensors, or an error with Triton's status category.
 *
 * <p>Ownership: the core fills a response on its own threads and hands it, completely filled, to the request's
 * {@link ResponseListener} (or completes the future with it); from then on it belongs to whoever received it, who
 * must {@link #close()} it exactly once. Output memory stays valid until then; closing releases each output's memory
 * to the {@link ResponseAllocator} that supplied it, on the closing thread (an output that is a view of a batch's
 * shared output drops its hold, and the last response of the batch to close returns the memory to the core's pool).
 *
 * <p>Responses are recycled: after {@code close()} the core may reuse this object, and its outputs, for another
 * request at once, so neither it nor any {@link OutputTensor} taken from it may be used or kept after closing.
 * {@code close()} on an already closed response does nothing, but only until the object is reused: close once.
 *
 * <p>Threads: not thread-safe. The owner may pass it to another thread (with the usual happens-before hand-off);
 * one thread at a time uses it.
 */
public final class InferenceResponse implements AutoCloseable
{
    private final Consumer<InferenceResponse> recycler;

    private String modelName;
    private long modelVersion;
    private String id;
    private InferenceRequest request;
    private InferenceException error;
    private OutputTensor[] outputs = new OutputTensor[2];
    private int outputCount;
    private boolean open;

    InferenceResponse(final Consumer<InferenceResponse> recycler)
    {
        this.recycler = recycler;
    }

    void begin(final InferenceRequest request, final String modelName, final long modelVersion)
    {
        this.request = request;
        this.modelName = modelName;
        this.modelVersion = modelVersion;
        this.id = request.id();
        this.error = null;
        this.outputCount = 0;
        this.open = true;
    }

    OutputTensor addOutput()
    {
        if (outputCount == outputs.length)
        {
            outputs = Arrays.copyOf(outputs, outputCount * 2);
        }
        OutputTensor tensor = outputs[outputCount];
        if (tensor == null)
        {
            tensor = new OutputTensor();
            outputs[outputCount] = tensor;
        }
        outputCount++;
        return tensor;
    }

    void fail(final InferenceException failure)
    {
        releaseOutputs();
        this.error = failure;
    }

    /** @return the model that answered. */
    public String modelName()
    {
        return modelName;
    }

    /** @return the version that answered ({@code -1} if the request never reached a version). */
    public long modelVersion()
    {
        return modelVersion;
    }

    /** @return the request's id ({@code ""} when it had none). */
    public String id()
    {
        return id;
    }

    /** @return the request this answers; it may be reused by the caller once this response was delivered. */
    public InferenceRequest request()
    {
        return request;
    }

    /** @return true when the request succeeded. */
    public boolean isOk()
    {
        return error == null;
    }

    /** @return the error, or {@code null} on success. */
    public InferenceException error()
    {
        return error;
    }

    /**
     * Throws the error, if any, as a new {@link InferenceException} with the same code and message whose cause is
     * the response's error (so that the stack trace shows the caller). An error response holds no output memory, so
     * when a try-with-resources block around {@code submit(...).join().throwIfError()} throws here, nothing leaks;
     * the response object is merely not reused.
     *
     * @return this, when successful
     * @throws InferenceException the response's error
     */
    public InferenceResponse throwIfError()
    {
        if (error != null)
        {
            throw new InferenceException(error.code(), error.getMessage(), error);
        }
        return this;
    }

    /** @return the number of outputs. */
    public int outputCount()
    {
        return outputCount;
    }

    /**
     * @param index output index
     * @return the output
     */
    public OutputTensor output(final int index)
    {
        checkOpen();
        if (index < 0 || index >= outputCount)
        {
            throw new IndexOutOfBoundsException("output " + index + " of " + outputCount);
        }
        return outputs[index];
    }

    /**
     * @param name output name
     * @return the output, or {@code null} when the response has no output of that name
     */
    public OutputTensor output(final String name)
    {
        checkOpen();
        for (int i = 0; i < outputCount; i++)
        {
            if (outputs[i].name().equals(name))
            {
                return outputs[i];
            }
        }
        return null;
    }

    /**
     * Releases the output memory to its allocators and returns this response to the core for reuse. Does nothing
     * on a response that is already closed and not yet reused.
     */
    @Override
    public void close()
    {
        if (!open)
        {
            return;
        }
        open = false;
        releaseOutputs();
        request = null;
        if (recycler != null)
        {
            recycler.accept(this);
        }
    }

    private void releaseOutputs()
    {
        for (int i = 0; i < outputCount; i++)
        {
            outputs[i].release();
        }
        outputCount = 0;
    }

    private void checkOpen()
    {
        if (!open)
        {
            throw new IllegalStateException("response to request '" + id + "' of model '" + modelName
                + "' is closed");
        }
    }

    @Override
    public String toString()
    {
        return "InferenceResponse{model='" + modelName + "', version=" + modelVersion + ", id='" + id + "', "
            + (error == null ? outputCount + " outputs" : error.code() + ": " + error.getMessage()) + '}';
    }
}
