package io.ingot.ipc.client;

import io.ingot.ipc.IpcStatus;

import java.util.List;

/**
 * The response to one submitted request: a status, an error message, and outputs that live in the output area of
 * the client's slab. {@link #close()} releases that space to the server; outputs must not be used afterwards.
 */
public final class IpcResponse implements AutoCloseable
{
    private final IpcClient owner;
    private final long correlationId;
    private final long modelVersion;
    private final int status;
    private final String message;
    private IpcOutput[] outputs;
    private boolean closed;

    IpcResponse(final IpcClient owner, final long correlationId, final long modelVersion, final int status,
        final String message)
    {
        this.owner = owner;
        this.correlationId = correlationId;
        this.modelVersion = modelVersion;
        this.status = status;
        this.message = message;
    }

    void outputs(final IpcOutput[] outputs)
    {
        this.outputs = outputs;
    }

    /** @return the id {@link IpcClient#submit} returned for the request. */
    public long correlationId()
    {
        return correlationId;
    }

    /** @return the model version that answered, -1 if none did. */
    public long modelVersion()
    {
        return modelVersion;
    }

    /** @return the {@link IpcStatus} code, {@link IpcStatus#OK} on success. */
    public int status()
    {
        return status;
    }

    /** @return whether the request succeeded. */
    public boolean isOk()
    {
        return status == IpcStatus.OK;
    }

    /** @return the error message, empty on success. */
    public String message()
    {
        return message;
    }

    /**
     * @return this, when the request succeeded
     * @throws IpcRequestFailedException with the status and message otherwise
     */
    public IpcResponse throwIfError()
    {
        if (status != IpcStatus.OK)
        {
            throw new IpcRequestFailedException(status, message);
        }
        return this;
    }

    /** @return the number of outputs. */
    public int outputCount()
    {
        return outputs.length;
    }

    /**
     * @param index output index
     * @return that output
     */
    public IpcOutput output(final int index)
    {
        checkOpen();
        return outputs[index];
    }

    /**
     * @param name an output name
     * @return that output, or {@code null} when the response has none of that name
     */
    public IpcOutput output(final String name)
    {
        checkOpen();
        for (final IpcOutput output : outputs)
        {
            if (output.name().equals(name))
            {
                return output;
            }
        }
        return null;
    }

    /** @return the outputs. */
    public List<IpcOutput> outputs()
    {
        checkOpen();
        return List.of(outputs);
    }

    /** Releases the outputs' space to the server (a RELEASE frame). Idempotent. */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            if (outputs.length > 0)
            {
                owner.release(this);
            }
        }
    }

    IpcOutput[] outputArray()
    {
        return outputs;
    }

    void checkOpen()
    {
        if (closed)
        {
            throw new IllegalStateException("response " + correlationId + " is closed; its outputs were released");
        }
    }

    @Override
    public String toString()
    {
        return "IpcResponse{id=" + correlationId + ", " + (isOk() ? outputs.length + " outputs"
            : IpcStatus.name(status) + ": " + message) + '}';
    }
}
