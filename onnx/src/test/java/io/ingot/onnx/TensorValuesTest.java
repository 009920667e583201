package io.ingot.onnx;

import io.ingot.onnx.capi.OrtApi;
import io.ingot.onnx.capi.OrtEnv;
import io.ingot.onnx.capi.OrtTypes;
import io.ingot.onnx.capi.OrtValueApi;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tensors over Ingot's memory are views, and strings cross as bytes, unchanged. */
class TensorValuesTest
{
    @Test
    void aNumericTensorUsesTheMemoryItIsGivenInPlace()
    {
        final OrtEnv env = OrtEnv.get();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment data = arena.allocate(ValueLayout.JAVA_LONG, 6);
            final MemorySegment shape = arena.allocateFrom(ValueLayout.JAVA_LONG, 2, 3);
            final MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            final MemorySegment value = TensorValues.over(env.cpuMemory(), data, data.byteSize(), shape, 2,
                OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT64, out);
            try
            {
                OrtValueApi.GetTensorMutableData(value, out);
                assertEquals(data.address(), out.get(ValueLayout.ADDRESS, 0).address(), "the tensor is a view");
                final OrtTypes.Shape described = OrtTypes.ofValue(value);
                assertEquals(OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT64, described.elementType());
                assertArrayEquals(new long[] {2, 3}, described.dims());
            }
            finally
            {
                OrtValueApi.ReleaseValue(value);
            }
        }
    }

    @Test
    void stringElementsCrossAsArbitraryBytesBothWays()
    {
        final OrtEnv env = OrtEnv.get();
        final byte[][] elements = {new byte[0], {0, 0, 7}, {(byte) 0xff, (byte) 0xfe}, "ok".getBytes()};
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment encoded = BytesLayout.encode(arena, elements);
            final MemorySegment shape = arena.allocateFrom(ValueLayout.JAVA_LONG, 4);
            final MemorySegment out = arena.allocate(ValueLayout.JAVA_LONG);
            final MemorySegment value = TensorValues.strings(env.allocator(), encoded, 4, shape, 1, out);
            try
            {
                final long size = TensorValues.encodedSize(value, 4, out);
                assertEquals(encoded.byteSize(), size);
                final MemorySegment decoded = arena.allocate(size);
                TensorValues.encodeStrings(value, 4, decoded, out);
                assertArrayEquals(encoded.toArray(ValueLayout.JAVA_BYTE), decoded.toArray(ValueLayout.JAVA_BYTE));
            }
            finally
            {
                OrtValueApi.ReleaseValue(value);
            }
        }
    }

    @Test
    void aTruncatedBytesTensorIsRefusedNamingTheElement()
    {
        final OrtEnv env = OrtEnv.get();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment encoded = BytesLayout.encode(arena, new byte[] {1, 2, 3});
            final MemorySegment shape = arena.allocateFrom(ValueLayout.JAVA_LONG, 2);
            final MemorySegment out = arena.allocate(ValueLayout.JAVA_LONG);
            final IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> TensorValues.strings(env.allocator(), encoded, 2, shape, 1, out));
            assertEquals("BYTES tensor ends after 1 of 2 elements", missing.getMessage());
            encoded.set(BytesLayout.LENGTH, 0, 9);
            final IllegalArgumentException overrun = assertThrows(IllegalArgumentException.class,
                () -> TensorValues.strings(env.allocator(), encoded, 1, shape, 1, out));
            assertEquals("BYTES element 0 declares 9 bytes but only 3 remain", overrun.getMessage());
        }
    }
}
