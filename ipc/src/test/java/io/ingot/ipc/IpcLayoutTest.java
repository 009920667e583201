package io.ingot.ipc;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.*;

class IpcLayoutTest
{
    private static IpcLayout defaults()
    {
        return new IpcLayout(16, 16 << 20, 8 << 20, 256 << 10, IpcLayout.minResponseRingCapacity(64), 64, 100, 5000);
    }

    @Test
    void areasArePageAlignedAndDoNotOverlap()
    {
        final IpcLayout layout = defaults();
        assertEquals(4096, layout.clientTableOffset());
        assertEquals(4096 + 4096, layout.ringsOffset(), "16 entries of 256 bytes fill one page");
        assertEquals(1 << 20, layout.responseRingCapacity(), "66 responses of 8 KiB round up to 1 MiB");
        long previousEnd = layout.ringsOffset();
        for (int client = 0; client < layout.maxClients(); client++)
        {
            assertEquals(0, layout.requestRingOffset(client) % 4096);
            assertEquals(0, layout.responseRingOffset(client) % 4096);
            assertEquals(previousEnd, layout.requestRingOffset(client));
            assertTrue(layout.requestRingOffset(client) + layout.requestRingLength()
                <= layout.responseRingOffset(client));
            previousEnd = layout.responseRingOffset(client) + IpcLimits.align(layout.responseRingLength(), 4096);
        }
        assertEquals(previousEnd, layout.dataOffset());
        assertEquals(0, layout.slabOffset(3) % 4096);
        assertEquals(layout.slabOffset(3) + (8 << 20), layout.outputAreaOffset(3));
        assertEquals(layout.dataOffset() + 16L * (16 << 20), layout.fileLength());
        assertThrows(IndexOutOfBoundsException.class, () -> layout.slabOffset(16));
    }

    @Test
    void everyOutOfRangeSizeIsRefusedByName()
    {
        assertMessage(() -> new IpcLayout(0, 16 << 20, 8 << 20, 256 << 10, 1 << 20, 64, 100, 5000), "maxClients");
        assertMessage(() -> new IpcLayout(1, 100_000, 65536, 256 << 10, 1 << 20, 64, 100, 5000), "slab length");
        assertMessage(() -> new IpcLayout(1, 1 << 20, 1 << 20, 256 << 10, 1 << 20, 64, 100, 5000),
            "slab input length");
        assertMessage(() -> new IpcLayout(1, 1 << 20, 1 << 19, 64 << 10, 1 << 20, 64, 100, 5000),
            "request ring capacity");
        assertMessage(() -> new IpcLayout(1, 1 << 20, 1 << 19, 256 << 10, 256 << 10, 64, 100, 5000),
            "response ring capacity must be a power of two of at least 1048576");
        assertMessage(() -> new IpcLayout(1, 1 << 20, 1 << 19, 256 << 10, 1 << 20, 2000, 100, 5000), "maxInFlight");
        assertMessage(() -> new IpcLayout(1, 1 << 20, 1 << 19, 256 << 10, 1 << 20, 64, 100, 200),
            "liveness timeout");
    }

    private static void assertMessage(final Runnable action, final String expected)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, action::run);
        assertTrue(ex.getMessage().contains(expected), ex.getMessage());
    }

    @Test
    void aWrittenHeaderReadsBackAndADamagedOneIsRefused()
    {
        final IpcLayout layout = defaults();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment header = arena.allocate(4096, 64);
            layout.writeTo(header);
            assertEquals(layout, IpcLayout.read(header, layout.fileLength(), "test"));

            final IpcRegionFormatException truncated = assertThrows(IpcRegionFormatException.class,
                () -> IpcLayout.read(header, layout.fileLength() - 4096, "test"));
            assertTrue(truncated.getMessage().contains("truncated"), truncated.getMessage());

            header.set(SharedMemory.INT, HeaderDescriptor.LAYOUT_VERSION_OFFSET, 2);
            final IpcRegionFormatException version = assertThrows(IpcRegionFormatException.class,
                () -> IpcLayout.read(header, layout.fileLength(), "test"));
            assertTrue(version.getMessage().contains("layout version 2"), version.getMessage());

            header.set(SharedMemory.INT, HeaderDescriptor.LAYOUT_VERSION_OFFSET, 1);
            header.set(SharedMemory.LONG, HeaderDescriptor.DATA_OFFSET_OFFSET, 12345);
            final IpcRegionFormatException offset = assertThrows(IpcRegionFormatException.class,
                () -> IpcLayout.read(header, layout.fileLength(), "test"));
            assertTrue(offset.getMessage().contains("data_offset is 12345"), offset.getMessage());

            header.set(SharedMemory.LONG, HeaderDescriptor.MAGIC_OFFSET, 0x1234);
            final IpcRegionFormatException magic = assertThrows(IpcRegionFormatException.class,
                () -> IpcLayout.read(header, layout.fileLength(), "test"));
            assertTrue(magic.getMessage().contains("not an Ingot IPC region"), magic.getMessage());
        }
    }

    @Test
    void theMagicSpellsIngotIpcInLittleEndian()
    {
        final byte[] bytes = MemorySegment.ofArray(new long[] {HeaderDescriptor.MAGIC})
            .toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        assertEquals("INGOTIPC", new String(bytes, java.nio.charset.StandardCharsets.US_ASCII));
    }
}
