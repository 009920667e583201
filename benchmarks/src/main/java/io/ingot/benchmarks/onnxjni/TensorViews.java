package io.ingot.benchmarks.onnxjni;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Makes ONNX Runtime tensors over Ingot's memory without copying it. ONNX Runtime's Java API uses a direct buffer
 * as the tensor's storage as it is (it copies only heap buffers), so a view of a native {@link MemorySegment} as a
 * buffer of the element type is enough: inputs are read from the batch's memory and pinned outputs are written
 * straight into it. The caller keeps the segment alive until the tensor is closed.
 */
final class TensorViews
{
    private static final ValueLayout.OfInt LENGTH = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private TensorViews()
    {
    }

    /**
     * Wraps memory as a tensor. For every type but {@link DataType#BYTES} the tensor uses {@code data} itself when
     * it is native memory.
     *
     * @param env   the ONNX Runtime environment
     * @param data  the elements, row-major, exactly {@code product(shape)} of them
     * @param type  element type
     * @param shape the shape ONNX Runtime sees
     * @return a tensor that must be closed before {@code data} is released
     * @throws OrtException             when ONNX Runtime rejects the tensor
     * @throws IllegalArgumentException for a type the Java API cannot pass, or a size that disagrees with the shape
     */
    static OnnxTensor wrap(final OrtEnvironment env, final MemorySegment data, final DataType type,
        final long[] shape) throws OrtException
    {
        if (type == DataType.BYTES)
        {
            return OnnxTensor.createTensor(env, decodeStrings(data, Shapes.elementCount(shape)), shape);
        }
        final long bytes = Shapes.elementCount(shape) * type.byteSize();
        if (data.byteSize() < bytes)
        {
            throw new IllegalArgumentException("tensor of shape " + Shapes.text(shape) + " and type " + type
                + " needs " + bytes + " bytes, the memory holds " + data.byteSize());
        }
        final ByteBuffer buffer = data.asSlice(0, bytes).asByteBuffer().order(ByteOrder.nativeOrder());
        return switch (type)
        {
            case FP32 -> OnnxTensor.createTensor(env, buffer.asFloatBuffer(), shape);
            case FP64 -> OnnxTensor.createTensor(env, buffer.asDoubleBuffer(), shape);
            case INT64 -> OnnxTensor.createTensor(env, buffer.asLongBuffer(), shape);
            case INT32 -> OnnxTensor.createTensor(env, buffer.asIntBuffer(), shape);
            case INT16 -> OnnxTensor.createTensor(env, buffer.asShortBuffer(), shape);
            case FP16 -> OnnxTensor.createTensor(env, buffer.asShortBuffer(), shape, OnnxJavaType.FLOAT16);
            case BF16 -> OnnxTensor.createTensor(env, buffer.asShortBuffer(), shape, OnnxJavaType.BFLOAT16);
            case INT8 -> OnnxTensor.createTensor(env, buffer, shape, OnnxJavaType.INT8);
            case UINT8 -> OnnxTensor.createTensor(env, buffer, shape, OnnxJavaType.UINT8);
            case BOOL -> OnnxTensor.createTensor(env, buffer, shape, OnnxJavaType.BOOL);
            case UINT16, UINT32, UINT64, BYTES -> throw new IllegalArgumentException(
                "ONNX Runtime's Java API cannot pass " + type + " tensors");
        };
    }

    /**
     * Copies a tensor ONNX Runtime allocated itself into Ingot's memory: the path for outputs whose shape was not
     * known before the run. (The Java API hands the bytes out as a copy; this copies that once more into
     * {@code target}.)
     *
     * @param tensor a numeric tensor
     * @param target memory of exactly the tensor's byte size
     */
    static void copyOut(final OnnxTensor tensor, final MemorySegment target)
    {
        final ByteBuffer bytes = tensor.getByteBuffer();
        final MemorySegment source = MemorySegment.ofBuffer(bytes);
        if (source.byteSize() != target.byteSize())
        {
            throw new IllegalStateException("output '" + tensor.getInfo() + "' has " + source.byteSize()
                + " bytes but " + target.byteSize() + " were allocated for it");
        }
        MemorySegment.copy(source, 0, target, 0, source.byteSize());
    }

    /**
     * Decodes Triton's {@code BYTES} layout: per element a 4-byte little-endian length, then that many bytes.
     *
     * @param data  the serialized elements
     * @param count the number of elements expected
     * @return the elements as UTF-8 strings (what ONNX string tensors hold)
     */
    static String[] decodeStrings(final MemorySegment data, final long count)
    {
        final String[] values = new String[Math.toIntExact(count)];
        long offset = 0;
        for (int i = 0; i < values.length; i++)
        {
            if (offset + Integer.BYTES > data.byteSize())
            {
                throw new IllegalArgumentException("BYTES tensor ends after " + i + " of " + count + " elements");
            }
            final int length = data.get(LENGTH, offset);
            offset += Integer.BYTES;
            if (length < 0 || offset + length > data.byteSize())
            {
                throw new IllegalArgumentException("BYTES element " + i + " declares " + length + " bytes but only "
                    + (data.byteSize() - offset) + " remain");
            }
            values[i] = new String(data.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
            offset += length;
        }
        return values;
    }

    /**
     * @param tensor a string tensor of any rank
     * @return its elements, row-major, UTF-8 encoded
     * @throws OrtException when ONNX Runtime cannot read the tensor
     */
    static byte[][] strings(final OnnxTensor tensor) throws OrtException
    {
        final java.util.List<byte[]> elements = new java.util.ArrayList<>();
        flatten(tensor.getValue(), elements);
        return elements.toArray(new byte[0][]);
    }

    private static void flatten(final Object value, final java.util.List<byte[]> elements)
    {
        switch (value)
        {
            case String text -> elements.add(text.getBytes(StandardCharsets.UTF_8));
            case Object[] array ->
            {
                for (final Object element : array)
                {
                    flatten(element, elements);
                }
            }
            default -> throw new IllegalStateException("unexpected string tensor element " + value.getClass());
        }
    }

    /**
     * @param elements encoded elements
     * @return their size in Triton's {@code BYTES} layout
     */
    static long encodedSize(final byte[][] elements)
    {
        long size = 0;
        for (final byte[] element : elements)
        {
            size += Integer.BYTES + element.length;
        }
        return size;
    }

    /**
     * Writes elements in Triton's {@code BYTES} layout: per element a 4-byte little-endian length, then its bytes.
     *
     * @param elements the elements
     * @param target   memory of exactly {@link #encodedSize} bytes
     */
    static void encodeStrings(final byte[][] elements, final MemorySegment target)
    {
        long offset = 0;
        for (final byte[] element : elements)
        {
            target.set(LENGTH, offset, element.length);
            MemorySegment.copy(MemorySegment.ofArray(element), 0, target, offset + Integer.BYTES, element.length);
            offset += Integer.BYTES + element.length;
        }
    }
}
