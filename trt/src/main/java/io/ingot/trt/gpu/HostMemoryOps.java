package io.ingot.trt.gpu;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * {@link DeviceMemoryOps} over host memory: "device" memory is off-heap host memory, copies are
 * {@link MemorySegment#copy}, work runs when it is queued and {@link DeviceStream#synchronize()} has nothing to
 * wait for. It lets the GPU backends' logic (buffer sizing, shapes, profiles, output handling) be tested without
 * CUDA, together with the TensorRT shim's test double, whose "engines" read and write host pointers. It is not a
 * CPU backend: nothing here is tuned for speed. CUDA graphs are not supported.
 */
public final class HostMemoryOps implements DeviceMemoryOps
{
    @Override
    public String name()
    {
        return "host";
    }

    @Override
    public void useDevice(final int deviceId)
    {
        // Host memory has no current device.
    }

    @Override
    public DeviceStream openStream(final int deviceId)
    {
        return new HostStream(deviceId);
    }

    /** A stream whose work runs when it is queued. */
    private static final class HostStream implements DeviceStream
    {
        private static final long ALIGNMENT = 256;

        private final int deviceId;
        private final Map<MemorySegment, Arena> allocations = new IdentityHashMap<>();
        private boolean closed;

        HostStream(final int deviceId)
        {
            this.deviceId = deviceId;
        }

        @Override
        public int deviceId()
        {
            return deviceId;
        }

        @Override
        public MemorySegment handle()
        {
            return MemorySegment.NULL;
        }

        @Override
        public void makeCurrent()
        {
            // Nothing to select.
        }

        @Override
        public MemorySegment allocate(final long byteSize)
        {
            ensureOpen();
            if (byteSize <= 0)
            {
                throw new IllegalArgumentException("device allocation size must be > 0, was " + byteSize);
            }
            final Arena arena = Arena.ofShared();
            final MemorySegment memory = arena.allocate(byteSize, ALIGNMENT);
            allocations.put(memory, arena);
            return memory;
        }

        @Override
        public void free(final MemorySegment deviceMemory)
        {
            final Arena arena = allocations.remove(deviceMemory);
            if (arena == null)
            {
                throw new IllegalArgumentException("memory at 0x" + Long.toHexString(deviceMemory.address())
                    + " was not allocated by this stream");
            }
            arena.close();
        }

        @Override
        public void copyToDevice(final MemorySegment host, final MemorySegment device, final long byteSize)
        {
            MemorySegment.copy(host, 0, device, 0, byteSize);
        }

        @Override
        public void copyToHost(final MemorySegment device, final MemorySegment host, final long byteSize)
        {
            MemorySegment.copy(device, 0, host, 0, byteSize);
        }

        @Override
        public void copyOnDevice(final MemorySegment source, final MemorySegment target, final long byteSize)
        {
            MemorySegment.copy(source, 0, target, 0, byteSize);
        }

        @Override
        public void synchronize()
        {
            ensureOpen();
        }

        @Override
        public boolean supportsGraphs()
        {
            return false;
        }

        @Override
        public void beginCapture()
        {
            throw new UnsupportedOperationException("host memory operations cannot capture CUDA graphs");
        }

        @Override
        public MemorySegment endCapture()
        {
            throw new UnsupportedOperationException("host memory operations cannot capture CUDA graphs");
        }

        @Override
        public void launchGraph(final MemorySegment graph)
        {
            throw new UnsupportedOperationException("host memory operations cannot launch CUDA graphs");
        }

        @Override
        public void destroyGraph(final MemorySegment graph)
        {
            throw new UnsupportedOperationException("host memory operations have no CUDA graphs");
        }

        @Override
        public void close()
        {
            if (!closed)
            {
                closed = true;
                allocations.values().forEach(Arena::close);
                allocations.clear();
            }
        }

        private void ensureOpen()
        {
            if (closed)
            {
                throw new IllegalStateException("stream is closed");
            }
        }
    }
}
