package io.ingot.server.protocol;

import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.OutputTensor;
import io.ingot.api.ResponseAllocator;
import io.ingot.server.shm.ShmSlice;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * One network inference request from decoding to the written response: the {@link InferenceRequest} given to the
 * core, the memory its inputs point into, the requested outputs, and the output memory.
 *
 * <p>As the request's {@link ResponseAllocator}, a call places each output where the protocol will send it from:
 * into the caller's shared-memory region (written in place, nothing sent), or into a pooled direct Netty buffer
 * that the response then sends as it is, so that output bytes are written once, by the core.
 *
 * <p>Threads: the decoder fills the call on a frontend thread; {@link #allocate} runs on an instance thread; the
 * encoder reads it after the core delivered the response (which orders the two). {@link #release()} frees
 * everything still owned and may be called once, when the response was sent or the request failed.
 */
public final class InferCall implements ResponseAllocator
{
    private final ByteBufAllocator allocator;
    private final InferenceRequest request;
    private final List<ByteBuf> inputBuffers = new ArrayList<>(2);
    private final List<ShmSlice> inputSlices = new ArrayList<>(0);
    private final List<RequestedOutput> outputs = new ArrayList<>(2);
    private boolean allOutputs = true;
    private boolean defaultBinary;
    private boolean released;
    private boolean emptyFinalResponse;

    /**
     * @param allocator where input copies and outputs are allocated
     * @param model     the model name
     * @param version   the version, or {@link InferenceRequest#DEFAULT_VERSION}
     */
    public InferCall(final ByteBufAllocator allocator, final String model, final long version)
    {
        this.allocator = allocator;
        this.request = new InferenceRequest(model).modelVersion(version).responseAllocator(this);
    }

    /** @return the request to submit. */
    public InferenceRequest request()
    {
        return request;
    }

    /** @return the allocator for buffers the decoder needs. */
    public ByteBufAllocator allocator()
    {
        return allocator;
    }

    /**
     * Keeps a buffer that input memory points into until the call is released.
     *
     * @param buffer a buffer now owned by the call
     * @return the buffer
     */
    public ByteBuf ownInput(final ByteBuf buffer)
    {
        inputBuffers.add(buffer);
        return buffer;
    }

    /**
     * Keeps a shared-memory input hold until the call is released.
     *
     * @param slice the held slice
     * @return the slice
     */
    public ShmSlice ownInput(final ShmSlice slice)
    {
        inputSlices.add(slice);
        return slice;
    }

    /**
     * Requests one output by name.
     *
     * @param name         the output's name
     * @param binary       whether it goes back as binary data
     * @param sharedMemory where to write it, or {@code null}; now owned by the call
     * @return the output's plan entry
     * @throws InferenceException INVALID_ARG when the output is requested twice, or when its shared-memory target
     *                            overlaps another output's
     */
    public RequestedOutput requestOutput(final String name, final boolean binary, final ShmSlice sharedMemory)
    {
        for (final RequestedOutput other : outputs)
        {
            if (other.name().equals(name))
            {
                if (sharedMemory != null)
                {
                    sharedMemory.release();
                }
                // Triton's text (core infer_request.cc AddOriginalRequestedOutput).
                final String id = request.id().isEmpty() ? "<id_unknown>" : request.id();
                throw new InferenceException(ErrorCode.INVALID_ARG, "[request id: " + id + "] output '" + name
                    + "' already exists in request");
            }
        }
        final RequestedOutput output = new RequestedOutput(name, binary, sharedMemory);
        outputs.add(output);
        allOutputs = false;
        request.requestOutput(name);
        if (sharedMemory != null)
        {
            for (final RequestedOutput other : outputs)
            {
                if (other != output && other.sharedMemory() != null && other.sharedMemory().overlaps(sharedMemory))
                {
                    throw new InferenceException(ErrorCode.INVALID_ARG, "shared memory of outputs '" + other.name()
                        + "' and '" + name + "' overlaps in region '" + sharedMemory.region().name()
                        + "': each output needs its own bytes");
                }
            }
        }
        return output;
    }

    /**
     * Sets how outputs not requested by name are returned (when the request lists none, all are returned).
     *
     * @param binary true to return them as binary data
     */
    public void defaultBinary(final boolean binary)
    {
        this.defaultBinary = binary;
    }

    /** @return true when no output was requested by name, so that the model returns all of them. */
    public boolean allOutputs()
    {
        return allOutputs;
    }

    /**
     * The plan for an output of the response.
     *
     * @param name the output's name
     * @return its entry (created for outputs returned without being requested by name)
     */
    public RequestedOutput output(final String name)
    {
        for (final RequestedOutput output : outputs)
        {
            if (output.name().equals(name))
            {
                return output;
            }
        }
        final RequestedOutput implicit = new RequestedOutput(name, defaultBinary, null);
        outputs.add(implicit);
        return implicit;
    }

    @Override
    public MemorySegment allocate(final String outputName, final DataType dataType, final long[] shape,
        final long byteSize)
    {
        final RequestedOutput output = output(outputName);
        final ShmSlice target = output.sharedMemory();
        if (target != null)
        {
            if (byteSize <= target.byteSize())
            {
                final MemorySegment memory = target.memory().asSlice(0, byteSize);
                output.allocated(null, memory);
                return memory;
            }
            // Keep the engine's write inside memory we own; the response then reports the error.
            output.failAllocation("shared memory size specified with the request for output '" + outputName + "' ("
                + target.byteSize() + " bytes) should be at least " + byteSize + " bytes to hold the results");
        }
        if (byteSize > Integer.MAX_VALUE)
        {
            output.failAllocation("output '" + outputName + "' of " + byteSize
                + " bytes exceeds the 2 GiB a single response tensor may have");
            final MemorySegment scratch = java.lang.foreign.Arena.ofAuto().allocate(byteSize);
            output.allocated(null, scratch);
            return scratch;
        }
        final int size = (int) byteSize;
        final ByteBuf buffer = allocator.directBuffer(size, size);
        final MemorySegment memory = MemorySegment.ofBuffer(buffer.nioBuffer(0, size));
        output.allocated(buffer, memory);
        return memory;
    }

    @Override
    public void release(final MemorySegment memory)
    {
        // The call owns output buffers: they outlive the response, which is closed before they are sent.
    }

    /**
     * Takes the bytes of an output to send in a response body: the buffer the core wrote into when it used this
     * call's allocation (no copy), or else a copy. The caller owns the returned buffer.
     *
     * @param output the plan entry
     * @param tensor the response's tensor
     * @return a buffer holding exactly the tensor's bytes
     */
    public ByteBuf takeOutputBytes(final RequestedOutput output, final OutputTensor tensor)
    {
        final MemorySegment data = tensor.data();
        final MemorySegment allocated = output.memory();
        final ByteBuf own = output.buffer();
        if (own != null && allocated != null && allocated.address() == data.address()
            && data.byteSize() <= allocated.byteSize())
        {
            output.takeBuffer();
            return own.writerIndex((int) data.byteSize());
        }
        if (data.byteSize() > Integer.MAX_VALUE)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "output '" + output.name() + "' of "
                + data.byteSize() + " bytes exceeds the 2 GiB a single response tensor may have");
        }
        final int size = (int) data.byteSize();
        final ByteBuf copy = allocator.directBuffer(size, size);
        MemorySegment.ofBuffer(copy.nioBuffer(0, size)).copyFrom(data);
        return copy.writerIndex(size);
    }

    /**
     * Makes sure a shared-memory output holds the tensor: the core normally wrote it there already through this
     * allocator; otherwise it is copied in.
     *
     * @param output the plan entry, with a shared-memory target
     * @param tensor the response's tensor
     */
    public void placeInSharedMemory(final RequestedOutput output, final OutputTensor tensor)
    {
        final MemorySegment data = tensor.data();
        final MemorySegment target = output.sharedMemory().memory();
        if (data.byteSize() > target.byteSize())
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "shared memory size specified with the request for "
                + "output '" + output.name() + "' (" + target.byteSize() + " bytes) should be at least "
                + data.byteSize() + " bytes to hold the results");
        }
        if (data.address() != target.address() || data.scope() != target.scope())
        {
            target.asSlice(0, data.byteSize()).copyFrom(data);
        }
    }

    /**
     * @param enabled whether the client asked for a decoupled model's flags-only final as an empty response (gRPC
     *                {@code triton_enable_empty_final_response})
     */
    public void emptyFinalResponse(final boolean enabled)
    {
        emptyFinalResponse = enabled;
    }

    /** @return whether a flags-only final is sent to the client as an empty response */
    public boolean emptyFinalResponse()
    {
        return emptyFinalResponse;
    }

    /** Frees input copies, unsent output buffers and shared-memory holds. Idempotent. */
    public void release()
    {
        if (released)
        {
            return;
        }
        released = true;
        for (final ByteBuf buffer : inputBuffers)
        {
            buffer.release();
        }
        inputBuffers.clear();
        for (final ShmSlice slice : inputSlices)
        {
            slice.release();
        }
        inputSlices.clear();
        for (final RequestedOutput output : outputs)
        {
            final ByteBuf buffer = output.takeBuffer();
            if (buffer != null)
            {
                buffer.release();
            }
            if (output.sharedMemory() != null)
            {
                output.sharedMemory().release();
            }
        }
    }
}
