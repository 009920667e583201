package io.ingot.device;

import io.ingot.cuda.CudaRuntime;
import io.ingot.cuda.HostCallbacks;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The device layer on a real GPU: pinned memory, copies with data checks, overlapping streams, events, host
 * callbacks, graphs and IPC. Tagged {@code gpu}: excluded from the default build, run by
 * {@code tools/gpu-check.sh --run}; skipped with the printed reason where no device is usable.
 */
@Tag("gpu")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CudaDeviceGpuTest
{
    private static final long MIB = 1L << 20;

    private static DeviceDiscovery.Result discovery;

    @BeforeAll
    static void requireDevice()
    {
        discovery = GpuTestSupport.requireDevice(CudaDeviceGpuTest.class);
        CudaRuntime.cudaSetDevice(0);
        System.out.println("CudaDeviceGpuTest: " + discovery.reason());
    }

    @Test
    void discoveryDescribesEveryDevice()
    {
        assertTrue(discovery.driverVersion() >= 13000, "driver " + discovery.driverVersion());
        assertEquals(CudaRuntime.cudaGetDeviceCount(), discovery.devices().size(), discovery.reason());
        for (int i = 0; i < discovery.devices().size(); i++)
        {
            final CudaDevice device = discovery.devices().get(i);
            assertEquals(i, device.index());
            assertFalse(device.name().isBlank());
            assertTrue(device.computeCapabilityMajor() >= 7, device.summary());
            assertTrue(device.multiprocessorCount() > 0, device.summary());
            assertTrue(device.totalMemoryBytes() > 1L << 30, device.summary());
        }
        final CudaRuntime.MemoryInfo memory = CudaRuntime.cudaMemGetInfo();
        assertTrue(memory.freeBytes() > 0 && memory.freeBytes() <= memory.totalBytes(), memory.toString());
        try (PinnedAllocator automatic = PinnedAllocators.automatic())
        {
            assertEquals("cuda-host", automatic.kind(), "a machine with a GPU gets pinned CUDA memory");
        }
    }

    @Test
    void pinnedAllocationIsAlignedZeroedUsableAndFreedWithItsArena()
    {
        final MemorySegment kept;
        try (CudaPinnedAllocator allocator = new CudaPinnedAllocator(); Arena arena = Arena.ofConfined())
        {
            final MemorySegment segment = allocator.allocate(MIB + 3, arena);
            assertEquals(MIB + 3, segment.byteSize());
            assertEquals(0, segment.address() % allocator.alignment());
            assertEquals(-1, MemorySegment.mismatch(segment, 0, segment.byteSize(),
                MemorySegment.ofArray(new byte[(int) segment.byteSize()]), 0, segment.byteSize()), "zeroed");
            segment.set(ValueLayout.JAVA_LONG_UNALIGNED, MIB - 5, 0x0123456789abcdefL);
            assertEquals(0x0123456789abcdefL, segment.get(ValueLayout.JAVA_LONG_UNALIGNED, MIB - 5));
            assertEquals(0, allocator.allocate(0, arena).byteSize());
            kept = segment;
        }
        assertFalse(kept.scope().isAlive(), "cudaFreeHost ran when the arena closed");
    }

    @Test
    void hostToDeviceToHostRoundTripPreservesFreshRandomData()
    {
        final long size = 8 * MIB + 13;
        final long seed = System.nanoTime();
        final PinnedAllocator allocator = new CudaPinnedAllocator();
        try (Arena arena = Arena.ofConfined();
             CudaStream stream = CudaStream.create();
             DeviceBuffer device = DeviceBuffer.allocate(size))
        {
            final MemorySegment source = allocator.allocate(size, arena);
            final MemorySegment target = allocator.allocate(size, arena);
            GpuTestSupport.fillRandom(source, seed);

            device.copyFromHostAsync(source, 0, stream);
            device.copyToHostAsync(0, target, stream);
            stream.synchronize();
            assertEquals(-1, source.mismatch(target), "async round trip, seed " + seed);

            device.fillAsync(5, 100, (byte) 0x5A, stream);
            device.copyToHostAsync(0, target, stream);
            stream.synchronize();
            for (long i = 0; i < 110; i++)
            {
                final byte expected = i >= 5 && i < 105 ? (byte) 0x5A : source.get(ValueLayout.JAVA_BYTE, i);
                assertEquals(expected, target.get(ValueLayout.JAVA_BYTE, i), "byte " + i + " after fill");
            }

            final MemorySegment tail = allocator.allocate(1000, arena);
            device.copyFromHost(source.asSlice(0, 1000), size - 1000);
            device.copyToHost(size - 1000, tail);
            assertEquals(-1, source.asSlice(0, 1000).mismatch(tail), "synchronous copies at the end");

            assertThrows(IndexOutOfBoundsException.class, () -> device.copyFromHostAsync(source, 1, stream),
                "one byte past the end is refused before anything is enqueued");
            assertThrows(IllegalArgumentException.class,
                () -> device.copyFromHostAsync(MemorySegment.ofArray(new byte[16]), 0, stream));
        }
    }

    @Test
    void streamOrderedAllocationWorksAndIsFreedOnItsStream()
    {
        assumeTrue(CudaRuntime.cudaDeviceGetAttribute(CudaRuntime.cudaDevAttrMemoryPoolsSupported, 0) == 1,
            "device 0 has no memory pools");
        final long seed = System.nanoTime();
        try (Arena arena = Arena.ofConfined(); CudaStream stream = CudaStream.create())
        {
            final PinnedAllocator allocator = new CudaPinnedAllocator();
            final MemorySegment source = allocator.allocate(MIB, arena);
            final MemorySegment target = allocator.allocate(MIB, arena);
            GpuTestSupport.fillRandom(source, seed);
            try (DeviceBuffer first = DeviceBuffer.allocateAsync(MIB, stream);
                 DeviceBuffer second = DeviceBuffer.allocateAsync(MIB, stream))
            {
                first.copyFromHostAsync(source, 0, stream);
                first.copyToAsync(0, second, 0, MIB, stream);
                second.copyToHostAsync(0, target, stream);
            }
            stream.synchronize();
            assertEquals(-1, source.mismatch(target), "seed " + seed);
        }
    }

    @Test
    void twoStreamsOverlapTheirCopies()
    {
        assumeTrue(CudaRuntime.cudaDeviceGetAttribute(CudaRuntime.cudaDevAttrAsyncEngineCount, 0) >= 2,
            "device 0 has fewer than two copy engines, so host-to-device and device-to-host copies cannot overlap");
        final long size = 256 * MIB;
        final PinnedAllocator allocator = new CudaPinnedAllocator();
        try (Arena arena = Arena.ofConfined();
             CudaStream upload = CudaStream.create();
             CudaStream download = CudaStream.create();
             DeviceBuffer uploadTarget = DeviceBuffer.allocate(size);
             DeviceBuffer downloadSource = DeviceBuffer.allocate(size);
             CudaEvent uploadStart = CudaEvent.create();
             CudaEvent uploadEnd = CudaEvent.create();
             CudaEvent downloadStart = CudaEvent.create();
             CudaEvent downloadEnd = CudaEvent.create())
        {
            final MemorySegment hostSource = allocator.allocate(size, arena);
            final MemorySegment hostTarget = allocator.allocate(size, arena);
            // Warm both directions once so that first-use costs do not serialise the measured copies.
            uploadTarget.copyFromHostAsync(hostSource.asSlice(0, MIB), 0, upload);
            downloadSource.copyToHostAsync(0, hostTarget.asSlice(0, MIB), download);
            upload.synchronize();
            download.synchronize();

            uploadStart.record(upload);
            uploadTarget.copyFromHostAsync(hostSource, 0, upload);
            uploadEnd.record(upload);
            downloadStart.record(download);
            downloadSource.copyToHostAsync(0, hostTarget, download);
            downloadEnd.record(download);
            uploadEnd.synchronize();
            downloadEnd.synchronize();

            final double uploadFinish = uploadEnd.elapsedMillisSince(uploadStart);
            final double downloadBegin = downloadStart.elapsedMillisSince(uploadStart);
            final double downloadFinish = downloadEnd.elapsedMillisSince(uploadStart);
            final double overlap = Math.min(uploadFinish, downloadFinish) - Math.max(0, downloadBegin);
            System.out.printf("CudaDeviceGpuTest: upload [0, %.3f] ms, download [%.3f, %.3f] ms, overlap %.3f ms%n",
                uploadFinish, downloadBegin, downloadFinish, overlap);
            assertTrue(overlap > 0, String.format("the copies ran one after the other: upload [0, %.3f] ms, "
                + "download [%.3f, %.3f] ms", uploadFinish, downloadBegin, downloadFinish));
        }
    }

    @Test
    void eventsTimeDeviceWorkAndResourcesRejectUseAfterClose()
    {
        final CudaStream stream = CudaStream.create();
        final CudaEvent start = CudaEvent.create();
        final CudaEvent end = CudaEvent.create();
        final DeviceBuffer buffer = DeviceBuffer.allocate(64 * MIB);
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment host = new CudaPinnedAllocator().allocate(64 * MIB, arena);
            start.record(stream);
            buffer.copyFromHostAsync(host, 0, stream);
            end.record(stream);
            end.synchronize();
            assertTrue(end.isComplete());
            assertTrue(stream.isIdle());
            final float millis = end.elapsedMillisSince(start);
            assertTrue(millis > 0 && Float.isFinite(millis), "64 MiB took " + millis + " ms");
        }
        finally
        {
            buffer.close();
            end.close();
            start.close();
            stream.close();
        }
        assertThrows(IllegalStateException.class, stream::synchronize);
        assertThrows(IllegalStateException.class, end::isComplete);
        assertThrows(IllegalStateException.class, buffer::address);
        assertDoesNotThrow(() ->
        {
            stream.close();
            end.close();
            buffer.close();
        }, "closing twice is a no-op");
    }

    @Test
    void hostCallbacksCompleteFuturesInStreamOrderAfterTheWorkBeforeThem() throws Exception
    {
        final int callbacks = 50;
        final long strayBefore = HostCallbacks.strayCallbackCount();
        try (Arena arena = Arena.ofConfined();
             CudaStream stream = CudaStream.create();
             CudaEvent copied = CudaEvent.create(CudaRuntime.cudaEventDisableTiming);
             DeviceBuffer buffer = DeviceBuffer.allocate(32 * MIB))
        {
            final MemorySegment host = new CudaPinnedAllocator().allocate(32 * MIB, arena);
            buffer.copyFromHostAsync(host, 0, stream);
            copied.record(stream);
            final CompletableFuture<Void> afterCopy = stream.whenDone();
            final List<Integer> order = Collections.synchronizedList(new ArrayList<>());
            final List<CompletableFuture<Void>> all = new ArrayList<>();
            for (int i = 0; i < callbacks; i++)
            {
                final int index = i;
                all.add(stream.whenDone().thenRun(() -> order.add(index)));
            }
            afterCopy.get(60, TimeUnit.SECONDS);
            assertTrue(copied.isComplete(), "the callback ran only after the copy before it had finished");
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            final List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < callbacks; i++)
            {
                expected.add(i);
            }
            assertEquals(expected, order);
            stream.synchronize();
        }
        assertEquals(strayBefore, HostCallbacks.strayCallbackCount(), "every callback found its future");
    }

    @Test
    void aCapturedGraphReplaysItsCopiesWithTheCurrentHostData()
    {
        final long size = 4 * MIB;
        final PinnedAllocator allocator = new CudaPinnedAllocator();
        try (Arena arena = Arena.ofConfined();
             CudaStream stream = CudaStream.create();
             DeviceBuffer first = DeviceBuffer.allocate(size);
             DeviceBuffer second = DeviceBuffer.allocate(size))
        {
            final MemorySegment source = allocator.allocate(size, arena);
            final MemorySegment target = allocator.allocate(size, arena);

            stream.beginCapture(CudaRuntime.cudaStreamCaptureModeThreadLocal);
            first.copyFromHostAsync(source, 0, stream);
            first.copyToAsync(0, second, 0, size, stream);
            second.copyToHostAsync(0, target, stream);
            try (CudaGraph graph = stream.endCapture(); CudaGraphExec exec = graph.instantiate())
            {
                assertTrue(stream.isIdle(), "capturing recorded the copies without running them");
                for (int replay = 0; replay < 3; replay++)
                {
                    final long seed = System.nanoTime();
                    GpuTestSupport.fillRandom(source, seed);
                    exec.launch(stream);
                    stream.synchronize();
                    assertEquals(-1, source.mismatch(target), "replay " + replay + ", seed " + seed);
                }
            }
        }
    }

    @Test
    void anExportedIpcHandleOpensInAnotherProcessAndShowsTheSameBytes() throws IOException, InterruptedException
    {
        final long size = 2 * MIB;
        final long seed = System.nanoTime();
        try (Arena arena = Arena.ofConfined(); DeviceBuffer buffer = DeviceBuffer.allocate(size))
        {
            final MemorySegment host = new CudaPinnedAllocator().allocate(size, arena);
            GpuTestSupport.fillRandom(host, seed);
            buffer.copyFromHost(host, 0);
            final CRC32C crc = new CRC32C();
            crc.update(host.asByteBuffer());

            final IpcMemHandle handle = buffer.exportIpc();
            assertNotEquals(IpcMemHandle.of(new byte[IpcMemHandle.SIZE]), handle, "a real handle is not all zeros");

            final Process child = new ProcessBuilder(List.of(
                ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString()),
                "--enable-native-access=ALL-UNNAMED",
                "-cp", IpcChild.classPath(),
                IpcChild.class.getName(), handle.toHex(), Long.toString(size)))
                .redirectErrorStream(true)
                .start();
            final String output;
            try
            {
                output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            }
            finally
            {
                if (!child.waitFor(120, TimeUnit.SECONDS))
                {
                    child.destroyForcibly();
                }
            }
            assertEquals(0, child.exitValue(), "the other process failed: " + output);
            assertTrue(output.endsWith("crc32c=" + crc.getValue()), "the other process read different bytes (seed "
                + seed + "): " + output);
        }
    }
}
