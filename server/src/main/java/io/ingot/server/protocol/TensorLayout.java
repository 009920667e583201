package io.ingot.server.protocol;

import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;

/**
 * Sizes and validation of tensors as the KServe v2 protocol lays them out: row-major, little-endian, no padding;
 * {@code BYTES} elements as a 4-byte little-endian length followed by that many bytes.
 */
public final class TensorLayout
{
    /** Little-endian unsigned 32-bit length prefix of one {@code BYTES} element (read as an int). */
    public static final ValueLayout.OfInt LENGTH_PREFIX =
        ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private TensorLayout()
    {
    }

    /**
     * Counts the elements of a shape, refusing negative dimensions and overflow.
     *
     * @param tensor the tensor's name, for the message
     * @param shape  the shape
     * @return the product of the dimensions (1 for a scalar)
     * @throws InferenceException INVALID_ARG for a negative dimension or a product beyond {@code Long.MAX_VALUE}
     */
    public static long elementCount(final String tensor, final long[] shape)
    {
        long count = 1;
        for (final long dim : shape)
        {
            if (dim < 0)
            {
                throw invalid("shape of tensor '" + tensor + "' has a negative dimension " + dim
                    + "; dimensions must be non-negative integers");
            }
            try
            {
                count = Math.multiplyExact(count, dim);
            }
            catch (final ArithmeticException overflow)
            {
                // Triton's text (server http_server.cc, GetElementCount's -3).
                throw invalid("invalid shape for input '" + tensor + "': shape " + shapeText(shape)
                    + " causes total element count to exceed maximum size of " + Long.MAX_VALUE);
            }
        }
        return count;
    }

    /**
     * Converts a list of dimensions to an array, as {@link #elementCount} then checks.
     *
     * @param dims the dimensions
     * @return a new array
     */
    public static long[] toShape(final List<Long> dims)
    {
        final long[] shape = new long[dims.size()];
        for (int i = 0; i < shape.length; i++)
        {
            shape[i] = dims.get(i);
        }
        return shape;
    }

    /**
     * The byte size a fixed-size tensor must have.
     *
     * @param tensor   name, for the message
     * @param dataType element type, not {@link DataType#BYTES}
     * @param elements element count
     * @return {@code elements * dataType.byteSize()}
     */
    public static long fixedByteSize(final String tensor, final DataType dataType, final long elements)
    {
        try
        {
            return Math.multiplyExact(elements, dataType.byteSize());
        }
        catch (final ArithmeticException overflow)
        {
            // Triton's text (server http_server.cc, the JSON input's byte size).
            throw invalid("byte size overflow for input '" + tensor + "': element count (" + elements
                + ") * data type size (" + dataType.byteSize() + ") exceeds maximum allowed size (" + Long.MAX_VALUE
                + ")");
        }
    }

    /** @return a shape as Triton's {@code ShapeToString} writes it: {@code [2,3]} */
    public static String shapeText(final long[] shape)
    {
        final StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < shape.length; i++)
        {
            text.append(i == 0 ? "" : ",").append(shape[i]);
        }
        return text.append(']').toString();
    }

    /**
     * Checks that {@code data} holds exactly the bytes a tensor of this type and shape needs. For {@code BYTES}
     * every length prefix is walked: the elements must fill the memory exactly and number {@code elements}.
     *
     * @param tensor   name, for the message
     * @param dataType element type
     * @param elements element count of the shape
     * @param data     the tensor's bytes
     * @throws InferenceException INVALID_ARG naming the tensor, the expected and the actual size
     */
    public static void checkData(final String tensor, final DataType dataType, final long elements,
        final MemorySegment data)
    {
        final long size = data.byteSize();
        if (dataType != DataType.BYTES)
        {
            final long expected = fixedByteSize(tensor, dataType, elements);
            if (size != expected)
            {
                throw invalid("unexpected total byte size " + size + " for input '" + tensor + "', expecting "
                    + expected + " (" + elements + " elements of " + dataType.wireName() + ")");
            }
            return;
        }
        long offset = 0;
        long count = 0;
        while (offset < size)
        {
            if (size - offset < Integer.BYTES)
            {
                throw invalid("BYTES input '" + tensor + "' ends inside the 4-byte length prefix of element "
                    + count + " (" + (size - offset) + " bytes left)");
            }
            final long length = Integer.toUnsignedLong(data.get(LENGTH_PREFIX, offset));
            offset += Integer.BYTES;
            if (length > size - offset)
            {
                throw invalid("element " + count + " of BYTES input '" + tensor + "' claims " + length
                    + " bytes but only " + (size - offset) + " remain");
            }
            offset += length;
            count++;
        }
        if (count != elements)
        {
            throw invalid("BYTES input '" + tensor + "' holds " + count + " elements, its shape needs " + elements);
        }
    }

    private static InferenceException invalid(final String message)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, message);
    }
}
