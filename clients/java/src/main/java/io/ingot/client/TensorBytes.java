package io.ingot.client;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Tensor contents as the protocol carries them, little-endian and row-major: Java arrays to bytes and back, and the
 * length-prefixed serialization of {@code BYTES} elements (Triton's {@code serialize_byte_tensor}). FP16 and BF16
 * are converted from and to {@code float}. Stateless and thread-safe; used by both clients.
 */
public final class TensorBytes
{
    private TensorBytes()
    {
    }

    /**
     * @param values   elements
     * @param datatype FP32, FP16 (rounded to half precision) or BF16 (the upper 16 bits)
     * @return the elements' bytes
     */
    public static byte[] of(final float[] values, final Datatype datatype)
    {
        final ByteBuffer bytes = allocate(values.length, datatype);
        for (final float value : values)
        {
            switch (datatype)
            {
                case FP32 -> bytes.putFloat(value);
                case FP16 -> bytes.putShort(Float.floatToFloat16(value));
                case BF16 -> bytes.putShort((short)(Float.floatToRawIntBits(value) >>> 16));
                default -> throw new IllegalArgumentException(datatype.name());
            }
        }
        return bytes.array();
    }

    /** @return FP64 elements' bytes */
    public static byte[] of(final double[] values)
    {
        final ByteBuffer bytes = allocate(values.length, Datatype.FP64);
        bytes.asDoubleBuffer().put(values);
        return bytes.array();
    }

    /** @return INT32 or UINT32 elements' bytes */
    public static byte[] of(final int[] values)
    {
        final ByteBuffer bytes = allocate(values.length, Datatype.INT32);
        bytes.asIntBuffer().put(values);
        return bytes.array();
    }

    /** @return INT64 or UINT64 elements' bytes */
    public static byte[] of(final long[] values)
    {
        final ByteBuffer bytes = allocate(values.length, Datatype.INT64);
        bytes.asLongBuffer().put(values);
        return bytes.array();
    }

    /** @return INT16 or UINT16 elements' bytes */
    public static byte[] of(final short[] values)
    {
        final ByteBuffer bytes = allocate(values.length, Datatype.INT16);
        bytes.asShortBuffer().put(values);
        return bytes.array();
    }

    /** @return BOOL elements' bytes, 0 or 1 each */
    public static byte[] of(final boolean[] values)
    {
        final byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++)
        {
            bytes[i] = (byte)(values[i] ? 1 : 0);
        }
        return bytes;
    }

    /**
     * @param elements BYTES elements
     * @return each as a 4-byte little-endian length and its bytes, one after the other
     */
    public static byte[] serialize(final List<byte[]> elements)
    {
        int size = 0;
        for (final byte[] element : elements)
        {
            size = Math.addExact(size, 4 + element.length);
        }
        final ByteBuffer bytes = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        for (final byte[] element : elements)
        {
            bytes.putInt(element.length).put(element);
        }
        return bytes.array();
    }

    /**
     * @param serialized length-prefixed BYTES elements
     * @return the elements
     * @throws InferenceServerException when a length runs past the end
     */
    public static List<byte[]> deserialize(final ByteBuffer serialized)
    {
        final ByteBuffer in = serialized.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        final List<byte[]> elements = new ArrayList<>();
        while (in.hasRemaining())
        {
            if (in.remaining() < 4)
            {
                throw new InferenceServerException("malformed BYTES tensor: " + in.remaining()
                    + " bytes left where a 4-byte length was expected");
            }
            final int length = in.getInt();
            if (length < 0 || length > in.remaining())
            {
                throw new InferenceServerException("malformed BYTES tensor: an element of " + Integer.toUnsignedString(
                    length) + " bytes with " + in.remaining() + " bytes left");
            }
            final byte[] element = new byte[length];
            in.get(element);
            elements.add(element);
        }
        return elements;
    }

    /**
     * @param data     elements' bytes
     * @param datatype FP32, FP16 or BF16
     * @return the elements as floats
     */
    public static float[] floats(final ByteBuffer data, final Datatype datatype)
    {
        final ByteBuffer in = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        final float[] values = new float[in.remaining() / datatype.elementBytes()];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = switch (datatype)
            {
                case FP32 -> in.getFloat();
                case FP16 -> Float.float16ToFloat(in.getShort());
                case BF16 -> Float.intBitsToFloat((in.getShort() & 0xFFFF) << 16);
                default -> throw new IllegalArgumentException(datatype.name());
            };
        }
        return values;
    }

    /** @return FP64 elements */
    public static double[] doubles(final ByteBuffer data)
    {
        final ByteBuffer in = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        final double[] values = new double[in.remaining() / 8];
        in.asDoubleBuffer().get(values);
        return values;
    }

    /** @return INT32 or UINT32 elements */
    public static int[] ints(final ByteBuffer data)
    {
        final ByteBuffer in = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        final int[] values = new int[in.remaining() / 4];
        in.asIntBuffer().get(values);
        return values;
    }

    /** @return INT64 or UINT64 elements */
    public static long[] longs(final ByteBuffer data)
    {
        final ByteBuffer in = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        final long[] values = new long[in.remaining() / 8];
        in.asLongBuffer().get(values);
        return values;
    }

    /** @return INT16 or UINT16 elements */
    public static short[] shorts(final ByteBuffer data)
    {
        final ByteBuffer in = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        final short[] values = new short[in.remaining() / 2];
        in.asShortBuffer().get(values);
        return values;
    }

    /** @return the bytes, as INT8, UINT8 or BOOL elements */
    public static byte[] bytes(final ByteBuffer data)
    {
        final byte[] values = new byte[data.remaining()];
        data.duplicate().get(values);
        return values;
    }

    /**
     * @param shape dimensions
     * @return the number of elements, or -1 when a dimension is negative (not known)
     */
    public static long elementCount(final long[] shape)
    {
        long count = 1;
        for (final long dimension : shape)
        {
            if (dimension < 0)
            {
                return -1;
            }
            count = Math.multiplyExact(count, dimension);
        }
        return count;
    }

    private static ByteBuffer allocate(final int elements, final Datatype datatype)
    {
        return ByteBuffer.allocate(Math.multiplyExact(elements, datatype.elementBytes()))
            .order(ByteOrder.LITTLE_ENDIAN);
    }
}
