package io.ingot.device;

import io.ingot.cuda.CudaRuntime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Device memory of a fixed size on the device that was current when it was allocated. Owns the allocation and
 * frees it exactly once on {@link #close()}, the way it was obtained: {@code cudaFree} for
 * {@link #allocate(long)}, {@code cudaFreeAsync} on the allocating stream for {@link #allocateAsync(long, CudaStream)},
 * {@code cudaIpcCloseMemHandle} for {@link #openIpc(IpcMemHandle, long)}.
 *
 * <p>Copies check their ranges against both sides before anything is enqueued, and take host memory as native
 * {@link MemorySegment}s (pinned memory from a {@link PinnedAllocator} for truly asynchronous copies). The
 * {@code *Async} methods only enqueue: both sides must stay valid until the stream has run the copy.
 */
public final class DeviceBuffer implements AutoCloseable
{
    private enum Release
    {
        FREE, FREE_ASYNC, IPC_CLOSE
    }

    private final MemorySegment address;
    private final long byteSize;
    private final Release release;
    private final CudaStream releaseStream;
    private final CloseGuard guard;

    private DeviceBuffer(final MemorySegment address, final long byteSize, final Release release,
                         final CudaStream releaseStream)
    {
        this.address = address;
        this.byteSize = byteSize;
        this.release = release;
        this.releaseStream = releaseStream;
        this.guard = new CloseGuard(CloseGuard.describe("device buffer", address.address()) + " of " + byteSize
            + " bytes");
    }

    /**
     * Allocates with {@code cudaMalloc} on the current device; the contents are undefined.
     *
     * @param byteSize bytes, {@code >= 0}
     * @return the buffer
     * @throws IllegalArgumentException when {@code byteSize} is negative
     * @throws io.ingot.cuda.CudaException e.g. {@code cudaErrorMemoryAllocation}
     */
    public static DeviceBuffer allocate(final long byteSize)
    {
        requireSize(byteSize);
        return new DeviceBuffer(CudaRuntime.cudaMalloc(byteSize), byteSize, Release.FREE, null);
    }

    /**
     * Allocates with {@code cudaMallocAsync}, ordered on {@code stream}: usable by work enqueued on it from now on
     * (other streams must synchronise with it first). Closing frees it with {@code cudaFreeAsync} on the same
     * stream, or with {@code cudaFree} (which waits for the device) when that stream is already closed.
     *
     * @param byteSize bytes, {@code >= 0}
     * @param stream   the stream that orders allocation and free
     * @return the buffer
     * @throws IllegalArgumentException when {@code byteSize} is negative
     */
    public static DeviceBuffer allocateAsync(final long byteSize, final CudaStream stream)
    {
        requireSize(byteSize);
        return new DeviceBuffer(CudaRuntime.cudaMallocAsync(byteSize, stream.handle()), byteSize,
            Release.FREE_ASYNC, stream);
    }

    /**
     * Maps an allocation that another process exported with {@link #exportIpc()}. A process cannot open its own
     * handles. Closing unmaps it; the exporter still owns the memory.
     *
     * @param handle   the exported handle
     * @param byteSize the exported allocation's size (the handle does not carry it), {@code >= 0}
     * @return the mapped buffer
     */
    public static DeviceBuffer openIpc(final IpcMemHandle handle, final long byteSize)
    {
        requireSize(byteSize);
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment bytes = arena.allocate(CudaRuntime.CUDA_IPC_MEM_HANDLE);
            handle.write(bytes);
            final MemorySegment mapped =
                CudaRuntime.cudaIpcOpenMemHandle(bytes, CudaRuntime.cudaIpcMemLazyEnablePeerAccess);
            return new DeviceBuffer(mapped, byteSize, Release.IPC_CLOSE, null);
        }
    }

    /**
     * @return the device address as a zero-length segment (not readable from the host)
     * @throws IllegalStateException when closed
     */
    public MemorySegment address()
    {
        guard.ensureOpen();
        return address;
    }

    /**
     * @param offset bytes from the start, {@code 0 <= offset <= byteSize()}
     * @return the device address {@code offset} bytes in
     */
    public MemorySegment address(final long offset)
    {
        checkRange(offset, 0, "offset");
        return offset == 0 ? address : MemorySegment.ofAddress(address.address() + offset);
    }

    /** @return the size in bytes */
    public long byteSize()
    {
        return byteSize;
    }

    /**
     * Enqueues a copy of all of {@code source} into this buffer at {@code offset}.
     *
     * @param source native host memory
     * @param offset where in this buffer the bytes go
     * @param stream the stream to enqueue on
     */
    public void copyFromHostAsync(final MemorySegment source, final long offset, final CudaStream stream)
    {
        requireNative(source, "source");
        checkRange(offset, source.byteSize(), "copy from host");
        CudaRuntime.cudaMemcpyAsync(address(offset), source, source.byteSize(), CudaRuntime.cudaMemcpyHostToDevice,
            stream.handle());
    }

    /**
     * Enqueues a copy of {@code destination.byteSize()} bytes from this buffer at {@code offset} into
     * {@code destination}.
     *
     * @param offset      where in this buffer the bytes come from
     * @param destination native host memory
     * @param stream      the stream to enqueue on
     */
    public void copyToHostAsync(final long offset, final MemorySegment destination, final CudaStream stream)
    {
        requireNative(destination, "destination");
        checkRange(offset, destination.byteSize(), "copy to host");
        CudaRuntime.cudaMemcpyAsync(destination, address(offset), destination.byteSize(),
            CudaRuntime.cudaMemcpyDeviceToHost, stream.handle());
    }

    /**
     * Copies all of {@code source} into this buffer at {@code offset} and waits for it.
     *
     * @param source native host memory
     * @param offset where in this buffer the bytes go
     */
    public void copyFromHost(final MemorySegment source, final long offset)
    {
        requireNative(source, "source");
        checkRange(offset, source.byteSize(), "copy from host");
        CudaRuntime.cudaMemcpy(address(offset), source, source.byteSize(), CudaRuntime.cudaMemcpyHostToDevice);
    }

    /**
     * Copies {@code destination.byteSize()} bytes from this buffer at {@code offset} into {@code destination} and
     * waits for it.
     *
     * @param offset      where in this buffer the bytes come from
     * @param destination native host memory
     */
    public void copyToHost(final long offset, final MemorySegment destination)
    {
        requireNative(destination, "destination");
        checkRange(offset, destination.byteSize(), "copy to host");
        CudaRuntime.cudaMemcpy(destination, address(offset), destination.byteSize(),
            CudaRuntime.cudaMemcpyDeviceToHost);
    }

    /**
     * Enqueues a device-to-device copy.
     *
     * @param sourceOffset      where in this buffer the bytes come from
     * @param destination       the target buffer (may be this one, without overlap)
     * @param destinationOffset where in {@code destination} they go
     * @param byteCount         bytes to copy
     * @param stream            the stream to enqueue on
     */
    public void copyToAsync(final long sourceOffset, final DeviceBuffer destination, final long destinationOffset,
                            final long byteCount, final CudaStream stream)
    {
        checkRange(sourceOffset, byteCount, "device copy source");
        destination.checkRange(destinationOffset, byteCount, "device copy destination");
        CudaRuntime.cudaMemcpyAsync(destination.address(destinationOffset), address(sourceOffset), byteCount,
            CudaRuntime.cudaMemcpyDeviceToDevice, stream.handle());
    }

    /**
     * Enqueues filling {@code byteCount} bytes at {@code offset} with {@code value}.
     *
     * @param offset    where to start
     * @param byteCount how many bytes
     * @param value     the byte
     * @param stream    the stream to enqueue on
     */
    public void fillAsync(final long offset, final long byteCount, final byte value, final CudaStream stream)
    {
        checkRange(offset, byteCount, "fill");
        CudaRuntime.cudaMemsetAsync(address(offset), value & 0xFF, byteCount, stream.handle());
    }

    /**
     * Exports this allocation for another process ({@link #openIpc(IpcMemHandle, long)} there).
     *
     * @return the handle
     * @throws IllegalStateException when this buffer is not a {@code cudaMalloc} allocation
     */
    public IpcMemHandle exportIpc()
    {
        guard.ensureOpen();
        if (release != Release.FREE)
        {
            throw new IllegalStateException("only cudaMalloc allocations (DeviceBuffer.allocate) can be exported "
                + "over IPC; " + guard + " is " + (release == Release.FREE_ASYNC
                ? "a stream-ordered allocation" : "itself an IPC mapping"));
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment bytes = arena.allocate(CudaRuntime.CUDA_IPC_MEM_HANDLE);
            CudaRuntime.cudaIpcGetMemHandle(bytes, address);
            return IpcMemHandle.read(bytes);
        }
    }

    /** Frees (or unmaps) the memory; a no-op when already closed. */
    @Override
    public void close()
    {
        if (!guard.tryClose())
        {
            return;
        }
        switch (release)
        {
            case FREE -> CudaRuntime.cudaFree(address);
            // A stream-ordered allocation may also be freed with cudaFree (which synchronises); that is the only
            // way left once its stream has been destroyed.
            case FREE_ASYNC ->
            {
                if (releaseStream.isClosed())
                {
                    CudaRuntime.cudaFree(address);
                }
                else
                {
                    CudaRuntime.cudaFreeAsync(address, releaseStream.handle());
                }
            }
            case IPC_CLOSE -> CudaRuntime.cudaIpcCloseMemHandle(address);
        }
    }

    @Override
    public String toString()
    {
        return guard.toString();
    }

    private void checkRange(final long offset, final long length, final String operation)
    {
        guard.ensureOpen();
        if (offset < 0 || length < 0 || offset > byteSize || length > byteSize - offset)
        {
            throw new IndexOutOfBoundsException(operation + ": " + length + " bytes at offset " + offset
                + " do not fit in " + guard);
        }
    }

    private static void requireNative(final MemorySegment segment, final String name)
    {
        if (!segment.isNative())
        {
            throw new IllegalArgumentException(name + " must be native (off-heap) memory, e.g. from a "
                + "PinnedAllocator; a heap segment cannot be passed to CUDA");
        }
    }

    private static void requireSize(final long byteSize)
    {
        if (byteSize < 0)
        {
            throw new IllegalArgumentException("device buffer size must be >= 0, was " + byteSize);
        }
    }
}
