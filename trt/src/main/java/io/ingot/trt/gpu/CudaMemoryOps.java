package io.ingot.trt.gpu;

import io.ingot.cuda.CudaException;
import io.ingot.cuda.CudaRuntime;
import io.ingot.cuda.NativeLibraryNotFoundException;
import io.ingot.device.CudaEvent;
import io.ingot.device.CudaGraph;
import io.ingot.device.CudaGraphExec;
import io.ingot.device.CudaStream;
import io.ingot.device.DeviceBuffer;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;

/**
 * {@link DeviceMemoryOps} over the CUDA runtime (Ingot's FFM bindings in {@code native-bindings}): non-blocking
 * streams, {@code cudaMalloc} buffers, {@code cudaMemcpyAsync} copies, and completion signalled by an event
 * created with {@code cudaEventBlockingSync}, so that a waiting instance thread sleeps instead of spinning.
 *
 * <p>On a machine without a usable GPU every method that touches the device throws a {@link GpuUnavailableException}
 * whose message says so and carries CUDA's reason (e.g. {@code cudaErrorInsufficientDriver}); creating this object
 * does nothing and never fails, so {@link java.util.ServiceLoader} can always instantiate the backends.
 */
public final class CudaMemoryOps implements DeviceMemoryOps
{
    @Override
    public String name()
    {
        return "cuda";
    }

    @Override
    public void useDevice(final int deviceId)
    {
        try
        {
            CudaRuntime.cudaSetDevice(deviceId);
        }
        catch (final CudaException | NativeLibraryNotFoundException failure)
        {
            throw GpuUnavailableException.wrap(deviceId, failure);
        }
    }

    @Override
    public DeviceStream openStream(final int deviceId)
    {
        useDevice(deviceId);
        try
        {
            return new CudaDeviceStream(deviceId, CudaStream.create());
        }
        catch (final CudaException | NativeLibraryNotFoundException failure)
        {
            throw GpuUnavailableException.wrap(deviceId, failure);
        }
    }

    /** A non-blocking CUDA stream with the buffers and graphs it owns. */
    private static final class CudaDeviceStream implements DeviceStream
    {
        private final int deviceId;
        private final CudaStream stream;
        private final CudaEvent done;
        private final Map<Long, DeviceBuffer> buffers = new HashMap<>();
        private final Map<Long, CudaGraphExec> graphs = new HashMap<>();
        private boolean closed;

        CudaDeviceStream(final int deviceId, final CudaStream stream)
        {
            this.deviceId = deviceId;
            this.stream = stream;
            try
            {
                this.done = CudaEvent.create(CudaRuntime.cudaEventBlockingSync | CudaRuntime.cudaEventDisableTiming);
            }
            catch (final RuntimeException failure)
            {
                stream.close();
                throw failure;
            }
        }

        @Override
        public int deviceId()
        {
            return deviceId;
        }

        @Override
        public MemorySegment handle()
        {
            return stream.handle();
        }

        @Override
        public void makeCurrent()
        {
            CudaRuntime.cudaSetDevice(deviceId);
        }

        @Override
        public MemorySegment allocate(final long byteSize)
        {
            if (byteSize <= 0)
            {
                throw new IllegalArgumentException("device allocation size must be > 0, was " + byteSize);
            }
            final DeviceBuffer buffer = DeviceBuffer.allocate(byteSize);
            buffers.put(buffer.address().address(), buffer);
            return buffer.address();
        }

        @Override
        public void free(final MemorySegment deviceMemory)
        {
            final DeviceBuffer buffer = buffers.remove(deviceMemory.address());
            if (buffer == null)
            {
                throw new IllegalArgumentException("device memory at 0x" + Long.toHexString(deviceMemory.address())
                    + " was not allocated by this stream");
            }
            stream.synchronize();
            buffer.close();
        }

        @Override
        public void copyToDevice(final MemorySegment host, final MemorySegment device, final long byteSize)
        {
            CudaRuntime.cudaMemcpyAsync(device, host, byteSize, CudaRuntime.cudaMemcpyHostToDevice, stream.handle());
        }

        @Override
        public void copyToHost(final MemorySegment device, final MemorySegment host, final long byteSize)
        {
            CudaRuntime.cudaMemcpyAsync(host, device, byteSize, CudaRuntime.cudaMemcpyDeviceToHost, stream.handle());
        }

        @Override
        public void copyOnDevice(final MemorySegment source, final MemorySegment target, final long byteSize)
        {
            CudaRuntime.cudaMemcpyAsync(target, source, byteSize, CudaRuntime.cudaMemcpyDeviceToDevice,
                stream.handle());
        }

        @Override
        public void synchronize()
        {
            // An event with cudaEventBlockingSync lets the waiting thread sleep until the stream reaches it.
            done.record(stream);
            done.synchronize();
        }

        @Override
        public boolean supportsGraphs()
        {
            return true;
        }

        @Override
        public void beginCapture()
        {
            stream.beginCapture(CudaRuntime.cudaStreamCaptureModeThreadLocal);
        }

        @Override
        public MemorySegment endCapture()
        {
            try (CudaGraph graph = stream.endCapture())
            {
                final CudaGraphExec exec = graph.instantiate();
                graphs.put(exec.handle().address(), exec);
                return exec.handle();
            }
        }

        @Override
        public void launchGraph(final MemorySegment graph)
        {
            final CudaGraphExec exec = graphs.get(graph.address());
            if (exec == null)
            {
                throw new IllegalArgumentException("graph 0x" + Long.toHexString(graph.address())
                    + " was not captured on this stream");
            }
            exec.launch(stream);
        }

        @Override
        public void destroyGraph(final MemorySegment graph)
        {
            final CudaGraphExec exec = graphs.remove(graph.address());
            if (exec != null)
            {
                exec.close();
            }
        }

        @Override
        public void close()
        {
            if (closed)
            {
                return;
            }
            closed = true;
            RuntimeException first = null;
            try
            {
                makeCurrent();
                stream.synchronize();
            }
            catch (final RuntimeException failure)
            {
                first = failure;
            }
            for (final CudaGraphExec exec : graphs.values())
            {
                first = closeQuietly(exec, first);
            }
            graphs.clear();
            for (final DeviceBuffer buffer : buffers.values())
            {
                first = closeQuietly(buffer, first);
            }
            buffers.clear();
            first = closeQuietly(done, first);
            first = closeQuietly(stream, first);
            if (first != null)
            {
                throw first;
            }
        }

        private static RuntimeException closeQuietly(final AutoCloseable resource, final RuntimeException first)
        {
            try
            {
                resource.close();
                return first;
            }
            catch (final Exception failure)
            {
                final RuntimeException wrapped = failure instanceof RuntimeException runtime ? runtime
                    : new IllegalStateException(failure);
                if (first != null)
                {
                    first.addSuppressed(wrapped);
                    return first;
                }
                return wrapped;
            }
        }
    }
}
