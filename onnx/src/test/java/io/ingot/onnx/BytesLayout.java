package io.ingot.onnx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/** Triton's BYTES layout for the tests: per element a 4-byte little-endian length, then its bytes. */
final class BytesLayout
{
    /** The length prefix. */
    static final ValueLayout.OfInt LENGTH = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private BytesLayout()
    {
    }

    /**
     * @param arena    where the memory comes from
     * @param elements the elements
     * @return them encoded
     */
    static MemorySegment encode(final Arena arena, final byte[]... elements)
    {
        long size = 0;
        for (final byte[] element : elements)
        {
            size += 4 + element.length;
        }
        final MemorySegment memory = arena.allocate(size);
        long offset = 0;
        for (final byte[] element : elements)
        {
            memory.set(LENGTH, offset, element.length);
            MemorySegment.copy(element, 0, memory, ValueLayout.JAVA_BYTE, offset + 4, element.length);
            offset += 4 + element.length;
        }
        return memory;
    }
}
