package io.ingot.tensorflow.capi;

import java.lang.foreign.MemorySegment;

/**
 * One {@code TF_Status}, made once and reused for every call of its owner (a session, an engine): a call fills it
 * in, {@link #check} turns anything but {@code TF_OK} into a {@link TensorFlowException}. Not thread-safe: one
 * owner thread at a time.
 */
public final class TfStatus implements AutoCloseable
{
    private MemorySegment status;

    /** Makes the status ({@code TF_NewStatus}). */
    public TfStatus()
    {
        status = TensorFlowC.TF_NewStatus();
    }

    /** @return the {@code TF_Status*} to pass to calls */
    public MemorySegment handle()
    {
        return status;
    }

    /** @return true when the last call through this status succeeded */
    public boolean ok()
    {
        return TensorFlowC.TF_GetCode(status) == TensorFlowC.TF_OK;
    }

    /**
     * @param call the C function just called with this status, for the message
     * @throws TensorFlowException when the status holds an error
     */
    public void check(final String call)
    {
        final int code = TensorFlowC.TF_GetCode(status);
        if (code != TensorFlowC.TF_OK)
        {
            throw new TensorFlowException(call, code, TensorFlowC.string(TensorFlowC.TF_Message(status)));
        }
    }

    @Override
    public void close()
    {
        if (status != null)
        {
            TensorFlowC.TF_DeleteStatus(status);
            status = null;
        }
    }
}
