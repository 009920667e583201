package io.ingot.server.protocol;

import io.ingot.server.shm.ShmSlice;
import io.ingot.tensor.DataType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * How one output of one request is to be returned, and the memory the core wrote it into. Filled by the decoder
 * (name, encoding, shared-memory target), then by {@link InferCall#allocate} on an instance thread, then read by the
 * encoder once the response arrived.
 */
public final class RequestedOutput
{
    private final String name;
    private final boolean binary;
    private final ShmSlice sharedMemory;
    private ByteBuf buffer;
    private MemorySegment memory;
    private String allocationError;
    private long classCount;
    private List<String> labels = List.of();
    private boolean batchFirst;

    RequestedOutput(final String name, final boolean binary, final ShmSlice sharedMemory)
    {
        this.name = name;
        this.binary = binary;
        this.sharedMemory = sharedMemory;
    }

    /** @return the output's name. */
    public String name()
    {
        return name;
    }

    /** @return true when the output goes back as binary data (HTTP binary extension; always true for gRPC). */
    public boolean binary()
    {
        return binary;
    }

    /** @return the shared-memory target, or {@code null} when the output goes back in the response body. */
    public ShmSlice sharedMemory()
    {
        return sharedMemory;
    }

    /** @return the buffer the output was allocated in, or {@code null} (shared memory, or not yet allocated). */
    ByteBuf buffer()
    {
        return buffer;
    }

    /** @return the memory handed to the core for this output, or {@code null}. */
    public MemorySegment memory()
    {
        return memory;
    }

    /** @return why the output could not be placed where the request asked, or {@code null}. */
    public String allocationError()
    {
        return allocationError;
    }

    void allocated(final ByteBuf allocatedBuffer, final MemorySegment allocatedMemory)
    {
        if (buffer != null && buffer != allocatedBuffer)
        {
            // A decoupled model's earlier response that was never sent: its buffer is not needed any more.
            buffer.release();
        }
        this.buffer = allocatedBuffer;
        this.memory = allocatedMemory;
    }

    void failAllocation(final String error)
    {
        this.allocationError = error;
    }

    ByteBuf takeBuffer()
    {
        final ByteBuf taken = buffer;
        buffer = null;
        return taken;
    }

    /**
     * Asks for the output as Triton's classification extension returns it ({@link Classification}).
     *
     * @param count         K, the number of classes per batch entry, {@code > 0}
     * @param classLabels   the output's labels, empty for none
     * @param batchingModel whether the model batches (its outputs' first dimension is the batch)
     */
    public void classify(final long count, final List<String> classLabels, final boolean batchingModel)
    {
        this.classCount = count;
        this.labels = classLabels;
        this.batchFirst = batchingModel;
    }

    /** @return K when the output is requested as classification, else 0. */
    public long classCount()
    {
        return classCount;
    }

    /**
     * Classifies the output's tensor as requested by {@link #classify}.
     *
     * @param dataType the tensor's datatype
     * @param shape    its shape
     * @param data     its bytes
     * @param alloc    where the result goes
     * @return the {@code BYTES} result, owned by the caller
     */
    public Classification.Result classification(final DataType dataType, final long[] shape,
        final MemorySegment data, final ByteBufAllocator alloc)
    {
        return Classification.classify(dataType, shape, batchFirst, data, classCount, labels, alloc);
    }
}
