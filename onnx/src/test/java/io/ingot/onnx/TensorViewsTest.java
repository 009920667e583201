package io.ingot.onnx;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import io.ingot.tensor.DataType;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TensorViewsTest
{
    private final OrtEnvironment env = OrtEnvironment.getEnvironment();

    @Test
    void wrapsNativeMemoryOfEveryFixedSizeTypeWithoutCopying() throws Exception
    {
        try (Arena arena = Arena.ofConfined())
        {
            for (final DataType type : DataType.values())
            {
                if (type == DataType.BYTES || !OnnxTypes.isSupportedByJavaApi(type))
                {
                    continue;
                }
                final MemorySegment memory = arena.allocate(6L * type.byteSize(), 64);
                try (OnnxTensor tensor = TensorViews.wrap(env, memory, type, new long[] {2, 3}))
                {
                    assertFalse(tensor.ownsBuffer(), type + " tensor must use the segment itself");
                    assertArrayEquals(new long[] {2, 3}, tensor.getInfo().getShape());
                    assertEquals(type, OnnxTypes.fromOnnx(tensor.getInfo().onnxType));
                }
            }
        }
    }

    @Test
    void seesWritesToTheMemoryAfterWrapping() throws Exception
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment memory = arena.allocate(3 * Float.BYTES, 64);
            try (OnnxTensor tensor = TensorViews.wrap(env, memory, DataType.FP32, new long[] {3}))
            {
                memory.setAtIndex(ValueLayout.JAVA_FLOAT, 1, 42.5f);
                assertEquals(42.5f, ((float[]) tensor.getValue())[1]);
            }
        }
    }

    @Test
    void rejectsMemorySmallerThanTheShape()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment memory = arena.allocate(5 * Float.BYTES, 64);
            final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> TensorViews.wrap(env, memory, DataType.FP32, new long[] {2, 3}));
            assertTrue(error.getMessage().contains("needs 24 bytes"), error.getMessage());
        }
    }

    @Test
    void decodesTritonBytesElements() throws Exception
    {
        try (Arena arena = Arena.ofConfined())
        {
            final byte[] first = "héllo".getBytes(StandardCharsets.UTF_8);
            final MemorySegment memory = arena.allocate(4 + first.length + 4);
            final ValueLayout.OfInt length = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
            memory.set(length, 0, first.length);
            MemorySegment.copy(MemorySegment.ofArray(first), 0, memory, 4, first.length);
            memory.set(length, 4 + first.length, 0);
            assertArrayEquals(new String[] {"héllo", ""}, TensorViews.decodeStrings(memory, 2));
            try (OnnxTensor tensor = TensorViews.wrap(env, memory, DataType.BYTES, new long[] {2}))
            {
                assertArrayEquals(new String[] {"héllo", ""}, (String[]) tensor.getValue());
            }
            final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> TensorViews.decodeStrings(memory, 3));
            assertTrue(error.getMessage().contains("ends after 2 of 3"), error.getMessage());
        }
    }
}
