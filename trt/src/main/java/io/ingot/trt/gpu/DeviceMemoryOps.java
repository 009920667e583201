package io.ingot.trt.gpu;

/**
 * Where the GPU backends move data: the CUDA runtime on a machine with a GPU ({@link CudaMemoryOps}), or plain
 * host memory ({@link HostMemoryOps}) for testing the backends' logic without CUDA, with the TensorRT shim's test
 * double. Implementations are thread-safe; the streams they open are not.
 */
public interface DeviceMemoryOps
{
    /** @return a short name for messages: {@code "cuda"} or {@code "host"} */
    String name();

    /**
     * Makes {@code deviceId} the calling thread's current device, as every CUDA call that creates device objects
     * (engines, contexts, handles) needs.
     *
     * @param deviceId a device ordinal
     * @throws RuntimeException naming the device and the cause (no usable GPU, no such device)
     */
    void useDevice(int deviceId);

    /**
     * Opens a stream (CUDA: non-blocking, so it never waits for the legacy default stream) on a device.
     *
     * @param deviceId a device ordinal
     * @return the stream, owned by the caller
     * @throws RuntimeException naming the device and the cause
     */
    DeviceStream openStream(int deviceId);
}
