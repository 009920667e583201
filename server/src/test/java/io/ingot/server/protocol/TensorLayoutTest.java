package io.ingot.server.protocol;

import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TensorLayoutTest
{
    @Test
    void elementCountMultipliesDimensionsAndRefusesNegativesAndOverflow()
    {
        assertEquals(1, TensorLayout.elementCount("x", new long[0]));
        assertEquals(0, TensorLayout.elementCount("x", new long[] {4, 0}));
        assertEquals(48, TensorLayout.elementCount("x", new long[] {2, 3, 8}));
        final InferenceException negative = assertThrows(InferenceException.class,
            () -> TensorLayout.elementCount("INPUT0", new long[] {1, -1}));
        assertEquals(ErrorCode.INVALID_ARG, negative.code());
        assertTrue(negative.getMessage().contains("INPUT0"), negative.getMessage());
        assertThrows(InferenceException.class,
            () -> TensorLayout.elementCount("x", new long[] {Long.MAX_VALUE, 2}));
    }

    @Test
    void fixedSizeTensorsMustHaveExactlyTheirBytes()
    {
        TensorLayout.checkData("x", DataType.FP32, 4, MemorySegment.ofArray(new byte[16]));
        final InferenceException wrong = assertThrows(InferenceException.class,
            () -> TensorLayout.checkData("x", DataType.FP32, 4, MemorySegment.ofArray(new byte[12])));
        assertTrue(wrong.getMessage().contains("unexpected total byte size 12 for input 'x', expecting 16"),
            wrong.getMessage());
    }

    @Test
    void bytesTensorsAreWalkedPrefixByPrefix()
    {
        final MemorySegment good = bytes("ab", "", "xyz");
        TensorLayout.checkData("s", DataType.BYTES, 3, good);

        final InferenceException count = assertThrows(InferenceException.class,
            () -> TensorLayout.checkData("s", DataType.BYTES, 2, good));
        assertTrue(count.getMessage().contains("holds 3 elements, its shape needs 2"), count.getMessage());

        final MemorySegment overrun = Arena.ofAuto().allocate(6);
        overrun.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0, 10);
        final InferenceException claims = assertThrows(InferenceException.class,
            () -> TensorLayout.checkData("s", DataType.BYTES, 1, overrun));
        assertTrue(claims.getMessage().contains("claims 10 bytes but only 2 remain"), claims.getMessage());

        final InferenceException partialPrefix = assertThrows(InferenceException.class,
            () -> TensorLayout.checkData("s", DataType.BYTES, 1, MemorySegment.ofArray(new byte[3])));
        assertTrue(partialPrefix.getMessage().contains("length prefix"), partialPrefix.getMessage());
    }

    static MemorySegment bytes(final String... elements)
    {
        int size = 0;
        for (final String element : elements)
        {
            size += 4 + element.getBytes(StandardCharsets.UTF_8).length;
        }
        final ByteBuffer buffer = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        for (final String element : elements)
        {
            final byte[] utf8 = element.getBytes(StandardCharsets.UTF_8);
            buffer.putInt(utf8.length).put(utf8);
        }
        return MemorySegment.ofArray(buffer.array());
    }
}
