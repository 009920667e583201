package io.ingot.trt;

import io.ingot.trt.gpu.DeviceStream;
import io.ingot.trt.gpu.HostMemoryOps;
import io.ingot.trt.shim.TrtCudaEngine;
import io.ingot.trt.shim.TrtExecutionContext;
import io.ingot.trt.shim.TrtRuntime;
import io.ingot.trt.testing.FakePlan;
import io.ingot.trt.testing.FakeTrtShim;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-shape CUDA graph bookkeeping, with a stream that records what it is asked to do (graph capture itself
 * needs a GPU and is exercised by the GPU tests).
 */
class CudaGraphCacheTest
{
    private final RecordingStream stream = new RecordingStream();
    private Arena arena;
    private TrtRuntime runtime;
    private TrtCudaEngine engine;
    private TrtExecutionContext context;

    @BeforeEach
    void setUp()
    {
        FakeTrtShim.install();
        arena = Arena.ofShared();
        runtime = TrtRuntime.create();
        final byte[] plan = FakePlan.text("input X FLOAT -1", "output Y FLOAT -1 = copy X", "profile 0 X 1 4 8")
            .getBytes(StandardCharsets.UTF_8);
        engine = runtime.deserialize(arena.allocate(plan.length).copyFrom(MemorySegment.ofArray(plan)));
        context = engine.createContext();
        context.setTensorAddress(engine.cName("X"), arena.allocate(64, 256));
        context.setTensorAddress(engine.cName("Y"), arena.allocate(64, 256));
    }

    @AfterEach
    void tearDown()
    {
        context.close();
        engine.close();
        runtime.close();
        arena.close();
    }

    @Test
    void capturesAShapeAfterItsWarmUpRunsAndLaunchesItAfterwards()
    {
        final CudaGraphCache cache = new CudaGraphCache("test", stream, 2, 4, 1);
        run(cache, 3);
        assertEquals(List.of(), stream.calls, "first run of a shape: plain enqueue");
        run(cache, 3);
        assertEquals(List.of("begin", "end#1"), stream.calls, "second run: enqueue, then capture the same work");
        run(cache, 3);
        run(cache, 3);
        assertEquals(List.of("begin", "end#1", "launch#1", "launch#1"), stream.calls);
        run(cache, 5);
        run(cache, 5);
        run(cache, 5);
        assertEquals(List.of("begin", "end#1", "launch#1", "launch#1", "begin", "end#2", "launch#2"), stream.calls,
            "each shape gets its own graph");
        assertEquals(2, cache.capturedCount());
        cache.invalidate();
        assertEquals(0, cache.capturedCount());
        assertTrue(stream.calls.containsAll(List.of("destroy#1", "destroy#2")), stream.calls::toString);
    }

    @Test
    void shapesBeyondTheCapacityRunUncaptured()
    {
        final CudaGraphCache cache = new CudaGraphCache("test", stream, 1, 1, 1);
        run(cache, 2);
        run(cache, 6);
        run(cache, 6);
        assertEquals(List.of("begin", "end#1"), stream.calls);
    }

    @Test
    void aFailedCaptureTurnsGraphsOffForTheInstance()
    {
        stream.failCapture = true;
        final CudaGraphCache cache = new CudaGraphCache("test", stream, 1, 4, 1);
        run(cache, 2);
        assertTrue(cache.isDisabled());
        run(cache, 2);
        run(cache, 7);
        assertEquals(List.of("begin", "end-failed"), stream.calls, "no further capture is attempted");
    }

    private void run(final CudaGraphCache cache, final long size)
    {
        final long[][] shapes = {{size, 0, 0, 0, 0, 0, 0, 0}};
        assertTrue(context.setInputShape(engine.cName("X"), shapes[0], 1));
        cache.run(context, 0, shapes, new int[] {1}, 1);
    }

    /** Records graph calls; copies and waits are not of interest here. */
    private static final class RecordingStream implements DeviceStream
    {
        final List<String> calls = new ArrayList<>();
        boolean failCapture;
        private long nextGraph = 1;
        private final DeviceStream host = new HostMemoryOps().openStream(0);

        @Override
        public int deviceId()
        {
            return 0;
        }

        @Override
        public MemorySegment handle()
        {
            return MemorySegment.NULL;
        }

        @Override
        public void makeCurrent()
        {
        }

        @Override
        public MemorySegment allocate(final long byteSize)
        {
            return host.allocate(byteSize);
        }

        @Override
        public void free(final MemorySegment deviceMemory)
        {
            host.free(deviceMemory);
        }

        @Override
        public void copyToDevice(final MemorySegment hostMemory, final MemorySegment device, final long byteSize)
        {
            host.copyToDevice(hostMemory, device, byteSize);
        }

        @Override
        public void copyToHost(final MemorySegment device, final MemorySegment hostMemory, final long byteSize)
        {
            host.copyToHost(device, hostMemory, byteSize);
        }

        @Override
        public void copyOnDevice(final MemorySegment source, final MemorySegment target, final long byteSize)
        {
            host.copyOnDevice(source, target, byteSize);
        }

        @Override
        public void synchronize()
        {
        }

        @Override
        public boolean supportsGraphs()
        {
            return true;
        }

        @Override
        public void beginCapture()
        {
            calls.add("begin");
        }

        @Override
        public MemorySegment endCapture()
        {
            if (failCapture)
            {
                calls.add("end-failed");
                throw new IllegalStateException("cudaStreamEndCapture failed: cudaErrorStreamCaptureInvalidated");
            }
            final long id = nextGraph++;
            calls.add("end#" + id);
            return MemorySegment.ofAddress(id);
        }

        @Override
        public void launchGraph(final MemorySegment graph)
        {
            calls.add("launch#" + graph.address());
        }

        @Override
        public void destroyGraph(final MemorySegment graph)
        {
            calls.add("destroy#" + graph.address());
        }

        @Override
        public void close()
        {
            host.close();
        }
    }
}
