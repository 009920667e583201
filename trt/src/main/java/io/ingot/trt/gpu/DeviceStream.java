package io.ingot.trt.gpu;

import java.lang.foreign.MemorySegment;

/**
 * One model instance's ordered queue of device work (a CUDA stream) and the device memory it owns. Copies and
 * kernels queued here run in order, asynchronously to the calling thread, until {@link #synchronize()}.
 *
 * <p>Device memory is represented by {@link MemorySegment}s whose address is the device pointer; for a CUDA
 * stream they have size zero and must never be read from Java. Host memory passed to the copy methods must be
 * native and stay valid until {@link #synchronize()} returns.
 *
 * <p>Used by one thread at a time: the instance's.
 */
public interface DeviceStream extends AutoCloseable
{
    /** @return the device this stream runs on ({@code -1} for host memory operations) */
    int deviceId();

    /** @return the {@code cudaStream_t} to pass to TensorRT or cuBLAS ({@link MemorySegment#NULL} on the host) */
    MemorySegment handle();

    /** Makes this stream's device the calling thread's current device (CUDA's current device is per thread). */
    void makeCurrent();

    /**
     * @param byteSize bytes to allocate, {@code > 0}
     * @return device memory aligned to at least 256 bytes, owned by this stream until {@link #free} or
     *         {@link #close()}
     */
    MemorySegment allocate(long byteSize);

    /** @param deviceMemory memory from {@link #allocate}; freed once the work queued so far has completed */
    void free(MemorySegment deviceMemory);

    /**
     * Queues a host-to-device copy.
     *
     * @param host     native host memory (pinned memory copies asynchronously at full speed)
     * @param device   device memory from {@link #allocate}
     * @param byteSize bytes to copy from the start of both
     */
    void copyToDevice(MemorySegment host, MemorySegment device, long byteSize);

    /**
     * Queues a device-to-host copy.
     *
     * @param device   device memory from {@link #allocate}
     * @param host     native host memory
     * @param byteSize bytes to copy from the start of both
     */
    void copyToHost(MemorySegment device, MemorySegment host, long byteSize);

    /**
     * Queues a device-to-device copy.
     *
     * @param source   device memory
     * @param target   device memory
     * @param byteSize bytes to copy from the start of both
     */
    void copyOnDevice(MemorySegment source, MemorySegment target, long byteSize);

    /**
     * Blocks until every piece of work queued so far has completed.
     *
     * @throws RuntimeException naming the failure when queued work failed
     */
    void synchronize();

    /** @return true when work queued here can be captured into a CUDA graph */
    boolean supportsGraphs();

    /** Starts capturing the work queued from now on into a graph instead of running it (thread-local mode). */
    void beginCapture();

    /**
     * Ends a capture started with {@link #beginCapture()} and instantiates the graph.
     *
     * @return the executable graph ({@code cudaGraphExec_t})
     * @throws RuntimeException when the capture was invalidated; the stream is usable again afterwards
     */
    MemorySegment endCapture();

    /** @param graph an executable graph from {@link #endCapture()}; queues one run of it */
    void launchGraph(MemorySegment graph);

    /** @param graph an executable graph from {@link #endCapture()}, no longer used */
    void destroyGraph(MemorySegment graph);

    /** Waits for queued work, frees all memory this stream owns and destroys the stream. Idempotent. */
    @Override
    void close();
}
