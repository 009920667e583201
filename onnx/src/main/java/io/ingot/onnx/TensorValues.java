package io.ingot.onnx;

import io.ingot.onnx.capi.OrtApi;
import io.ingot.onnx.capi.OrtValueApi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Makes ONNX Runtime tensors ({@code OrtValue}s) over Ingot's memory and reads tensors ONNX Runtime made. Numeric
 * tensors are views: {@code CreateTensorWithDataAsOrtValue} uses the memory in place, so inputs are read from the
 * batch's memory and bound outputs are written straight into it. String tensors hold {@code std::string}s, so Triton's
 * {@code BYTES} layout (per element a 4-byte little-endian length, then that many bytes, any byte value) is copied
 * once each way, element by element, with no character decoding: an element may hold any bytes, NUL included.
 *
 * <p>Every method takes the caller's scratch {@code out} (one pointer) so that none allocates native memory of its
 * own; stateless and thread-safe otherwise.
 */
final class TensorValues
{
    private static final ValueLayout.OfInt LENGTH = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private TensorValues()
    {
    }

    /**
     * A tensor over memory, used in place.
     *
     * @param memoryInfo the CPU {@code OrtMemoryInfo*}
     * @param data       the elements, row-major; must stay valid until the value is released
     * @param byteSize   their byte size, exactly the shape's
     * @param shape      {@code int64_t} dimensions
     * @param rank       their count
     * @param onnxType   the {@code ONNXTensorElementDataType}
     * @param out        scratch for the {@code OrtValue**} out-parameter
     * @return the {@code OrtValue*}, released by the caller
     */
    static MemorySegment over(final MemorySegment memoryInfo, final MemorySegment data, final long byteSize,
        final MemorySegment shape, final int rank, final int onnxType, final MemorySegment out)
    {
        OrtValueApi.CreateTensorWithDataAsOrtValue(memoryInfo, data, byteSize, shape, rank, onnxType, out);
        return out.get(ValueLayout.ADDRESS, 0);
    }

    /**
     * A string tensor filled from Triton's {@code BYTES} layout.
     *
     * @param allocator the default {@code OrtAllocator*}
     * @param data      the serialized elements
     * @param count     the number of elements the shape holds
     * @param shape     {@code int64_t} dimensions
     * @param rank      their count
     * @param out       scratch for out-parameters
     * @return the {@code OrtValue*}, released by the caller
     * @throws IllegalArgumentException when {@code data} does not hold {@code count} well-formed elements
     */
    @SuppressWarnings("restricted") // ONNX Runtime hands back an unsized char* of exactly the length asked for
    static MemorySegment strings(final MemorySegment allocator, final MemorySegment data, final long count,
        final MemorySegment shape, final int rank, final MemorySegment out)
    {
        OrtValueApi.CreateTensorAsOrtValue(allocator, shape, rank, OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING, out);
        final MemorySegment value = out.get(ValueLayout.ADDRESS, 0);
        try
        {
            long offset = 0;
            for (long i = 0; i < count; i++)
            {
                if (offset + Integer.BYTES > data.byteSize())
                {
                    throw new IllegalArgumentException("BYTES tensor ends after " + i + " of " + count + " elements");
                }
                final long length = Integer.toUnsignedLong(data.get(LENGTH, offset));
                offset += Integer.BYTES;
                if (offset + length > data.byteSize())
                {
                    throw new IllegalArgumentException("BYTES element " + i + " declares " + length
                        + " bytes but only " + (data.byteSize() - offset) + " remain");
                }
                OrtValueApi.GetResizedStringTensorElementBuffer(value, i, length, out);
                if (length > 0)
                {
                    MemorySegment.copy(data, offset, out.get(ValueLayout.ADDRESS, 0).reinterpret(length), 0, length);
                }
                offset += length;
            }
            return value;
        }
        catch (final RuntimeException e)
        {
            OrtValueApi.ReleaseValue(value);
            throw e;
        }
    }

    /**
     * @param value a string tensor
     * @param count its element count
     * @param out   scratch for out-parameters
     * @return its size in Triton's {@code BYTES} layout
     */
    static long encodedSize(final MemorySegment value, final long count, final MemorySegment out)
    {
        OrtValueApi.GetStringTensorDataLength(value, out);
        return Math.addExact(out.get(ValueLayout.JAVA_LONG, 0), Math.multiplyExact(count, Integer.BYTES));
    }

    /**
     * Writes a string tensor's elements in Triton's {@code BYTES} layout, each copied once from ONNX Runtime.
     *
     * @param value  a string tensor
     * @param count  its element count
     * @param target memory of exactly {@link #encodedSize} bytes
     * @param out    scratch for out-parameters
     */
    static void encodeStrings(final MemorySegment value, final long count, final MemorySegment target,
        final MemorySegment out)
    {
        long offset = 0;
        for (long i = 0; i < count; i++)
        {
            OrtValueApi.GetStringTensorElementLength(value, i, out);
            final long length = out.get(ValueLayout.JAVA_LONG, 0);
            target.set(LENGTH, offset, Math.toIntExact(length));
            offset += Integer.BYTES;
            OrtValueApi.GetStringTensorElement(value, length, i, target.asSlice(offset, length));
            offset += length;
        }
    }

    /**
     * Copies a numeric tensor ONNX Runtime allocated into Ingot's memory: the one copy of an output whose shape only
     * the run could tell.
     *
     * @param value  a numeric tensor
     * @param target memory of exactly its byte size
     * @param out    scratch for out-parameters
     */
    @SuppressWarnings("restricted") // GetTensorMutableData returns an unsized void*; target's size bounds the read
    static void copyOut(final MemorySegment value, final MemorySegment target, final MemorySegment out)
    {
        OrtValueApi.GetTensorMutableData(value, out);
        final MemorySegment source = out.get(ValueLayout.ADDRESS, 0).reinterpret(target.byteSize());
        MemorySegment.copy(source, 0, target, 0, target.byteSize());
    }
}
