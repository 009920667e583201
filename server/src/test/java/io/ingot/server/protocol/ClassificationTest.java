package io.ingot.server.protocol;

import io.ingot.api.InferenceException;
import io.ingot.tensor.DataType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link Classification} against what Triton's {@code TopkClassifications} (server src/classification.cc) gives. */
class ClassificationTest
{
    private static List<String> run(final DataType type, final long[] shape, final boolean batching,
        final MemorySegment data, final long k, final List<String> labels)
    {
        final Classification.Result result = Classification.classify(type, shape, batching, data, k, labels,
            ByteBufAllocator.DEFAULT);
        final ByteBuf bytes = result.bytes();
        try
        {
            final List<String> values = new ArrayList<>();
            while (bytes.isReadable())
            {
                final int length = bytes.readIntLE();
                values.add(bytes.readCharSequence(length, StandardCharsets.UTF_8).toString());
            }
            return values;
        }
        finally
        {
            bytes.release();
        }
    }

    @Test
    void valuesPrintAsStdToStringPrintsThem()
    {
        // std::to_string(double) is printf("%f"): the exact binary value, rounded to six decimals.
        assertEquals("0.100000", Classification.fixedSix(0.1f));
        assertEquals("1234567.000000", Classification.fixedSix(1234567f));
        assertEquals("-0.500000", Classification.fixedSix(-0.5));
        assertEquals("-0.000000", Classification.fixedSix(-1e-9));
        assertEquals("0.000001", Classification.fixedSix(5.000001e-7));
        assertEquals("inf", Classification.fixedSix(Double.POSITIVE_INFINITY));
        assertEquals("nan", Classification.fixedSix(Double.NaN));
    }

    @Test
    void unsignedAndSignedIntegersAreComparedAsTheirType()
    {
        final MemorySegment u8 = Arena.ofAuto().allocate(3);
        u8.set(ValueLayout.JAVA_BYTE, 0, (byte) 200);
        u8.set(ValueLayout.JAVA_BYTE, 1, (byte) 7);
        u8.set(ValueLayout.JAVA_BYTE, 2, (byte) 255);
        assertEquals(List.of("255:2:c", "200:0:a"), run(DataType.UINT8, new long[] {3}, false, u8, 2,
            List.of("a", "b", "c")));
        assertEquals(List.of("7:1:b", "-1:2:c"), run(DataType.INT8, new long[] {3}, false, u8, 2,
            List.of("a", "b", "c")));
        final MemorySegment u64 = Arena.ofAuto().allocate(16);
        u64.set(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0, -1L);
        u64.set(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 8, 5L);
        assertEquals(List.of("18446744073709551615:0", "5:1"), run(DataType.UINT64, new long[] {2}, false, u64, 2,
            List.of()));
    }

    @Test
    void onlyTheTypesTritonClassifiesAreAccepted()
    {
        final MemorySegment two = Arena.ofAuto().allocate(4);
        for (final DataType type : new DataType[] {DataType.FP16, DataType.BF16, DataType.BOOL, DataType.BYTES})
        {
            final InferenceException refused = assertThrows(InferenceException.class,
                () -> Classification.classify(type, new long[] {1}, false, two, 1, List.of(),
                    ByteBufAllocator.DEFAULT));
            assertEquals("class result not available for output due to unsupported type '" + type.wireName() + "'",
                refused.getMessage());
        }
    }

    @Test
    void theResultShapeIsBatchByMinOfKAndClasses()
    {
        final MemorySegment data = Arena.ofAuto().allocate(6 * 8);
        for (int i = 0; i < 6; i++)
        {
            data.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), i, i);
        }
        final Classification.Result result = Classification.classify(DataType.FP64, new long[] {3, 2}, true, data,
            5, List.of(), ByteBufAllocator.DEFAULT);
        result.bytes().release();
        assertArrayEquals(new long[] {3, 2}, result.shape());
        assertEquals(List.of("5.000000:1", "4.000000:0"), run(DataType.FP64, new long[] {3, 2}, true, data, 5,
            List.of()).subList(4, 6));
    }
}
