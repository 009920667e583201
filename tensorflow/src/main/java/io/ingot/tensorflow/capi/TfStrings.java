package io.ingot.tensorflow.capi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Converts between Triton's {@code BYTES} layout (each element a 4-byte little-endian length, then its bytes) and
 * TensorFlow 2's {@code TF_STRING} tensors, whose elements are 24-byte {@code TF_TString}s
 * ({@code ctstring_internal.h}; little-endian x86-64 layout):
 * <ul>
 *   <li>SMALL: byte 0 is {@code size << 2}, bytes 1..22 hold the string inline;</li>
 *   <li>LARGE: {@code size_t size << 2 | 1}, {@code size_t cap}, {@code char* ptr};</li>
 *   <li>OFFSET: {@code uint32 size} (byte-swapped, {@code << 2 | 2}), {@code uint32 offset} from the element;</li>
 *   <li>VIEW: {@code size_t size << 2 | 3}, {@code const char* ptr} to bytes the string does not own.</li>
 * </ul>
 * Inputs become VIEWs of the request's own bytes: the string bytes are not copied, only the 24-byte headers are
 * written. Stateless and thread-safe.
 */
public final class TfStrings
{
    /** Bytes of one {@code TF_TString}. */
    public static final long TSTRING_BYTES = 24;

    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LE_LONG =
        ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private TfStrings()
    {
    }

    /**
     * Writes one VIEW {@code TF_TString} per element of a {@code BYTES} buffer.
     *
     * @param bytes    the elements in Triton's layout (native memory that outlives the tensor)
     * @param count    how many elements the shape says there are
     * @param tstrings at least {@code count * 24} bytes, 8-byte aligned
     * @throws IllegalArgumentException when the buffer does not hold exactly {@code count} well-formed elements
     */
    public static void writeViews(final MemorySegment bytes, final long count, final MemorySegment tstrings)
    {
        final long size = bytes.byteSize();
        long offset = 0;
        for (long i = 0; i < count; i++)
        {
            if (offset + Integer.BYTES > size)
            {
                throw new IllegalArgumentException("BYTES element " + i + " of " + count + " starts at byte " + offset
                    + " but the buffer holds only " + size + " bytes");
            }
            final long length = Integer.toUnsignedLong(bytes.get(LE_INT, offset));
            offset += Integer.BYTES;
            if (offset + length > size)
            {
                throw new IllegalArgumentException("BYTES element " + i + " of " + count + " claims " + length
                    + " bytes at byte " + offset + " but the buffer holds only " + size + " bytes");
            }
            final long header = i * TSTRING_BYTES;
            tstrings.set(LE_LONG, header, (length << 2) | TensorFlowC.TF_TSTR_VIEW);
            tstrings.set(LE_LONG, header + 8, bytes.address() + offset);
            tstrings.set(LE_LONG, header + 16, 0L);
            offset += length;
        }
        if (offset != size)
        {
            throw new IllegalArgumentException("the BYTES buffer holds " + (size - offset) + " bytes after its "
                + count + " elements");
        }
    }

    /**
     * @param tstrings {@code count} strings of a {@code TF_STRING} tensor
     * @param count    how many
     * @return the size of the same strings in Triton's {@code BYTES} layout
     */
    public static long encodedSize(final MemorySegment tstrings, final long count)
    {
        long total = 0;
        for (long i = 0; i < count; i++)
        {
            total += Integer.BYTES + size(tstrings, i * TSTRING_BYTES);
        }
        return total;
    }

    /**
     * Writes the strings of a {@code TF_STRING} tensor in Triton's {@code BYTES} layout.
     *
     * @param tstrings {@code count} strings
     * @param count    how many
     * @param out      exactly {@link #encodedSize} bytes
     */
    public static void encode(final MemorySegment tstrings, final long count, final MemorySegment out)
    {
        long offset = 0;
        for (long i = 0; i < count; i++)
        {
            final long header = i * TSTRING_BYTES;
            final long length = size(tstrings, header);
            out.set(LE_INT, offset, (int) length);
            offset += Integer.BYTES;
            MemorySegment.copy(data(tstrings, header, length), 0, out, offset, length);
            offset += length;
        }
    }

    private static int type(final MemorySegment tstrings, final long header)
    {
        return tstrings.get(ValueLayout.JAVA_BYTE, header) & TensorFlowC.TF_TSTR_TYPE_MASK;
    }

    private static long size(final MemorySegment tstrings, final long header)
    {
        return switch (type(tstrings, header))
        {
            case TensorFlowC.TF_TSTR_SMALL -> (tstrings.get(ValueLayout.JAVA_BYTE, header) & 0xFF) >>> 2;
            case TensorFlowC.TF_TSTR_OFFSET -> Integer.toUnsignedLong(
                Integer.reverseBytes(tstrings.get(LE_INT, header))) >>> 2;
            default -> tstrings.get(LE_LONG, header) >>> 2;
        };
    }

    @SuppressWarnings("restricted") // LARGE and VIEW strings point at memory TensorFlow owns for the tensor's life
    private static MemorySegment data(final MemorySegment tstrings, final long header, final long length)
    {
        return switch (type(tstrings, header))
        {
            case TensorFlowC.TF_TSTR_SMALL -> tstrings.asSlice(header + 1, length);
            case TensorFlowC.TF_TSTR_LARGE -> MemorySegment.ofAddress(tstrings.get(LE_LONG, header + 16))
                .reinterpret(length);
            case TensorFlowC.TF_TSTR_OFFSET -> MemorySegment.ofAddress(tstrings.address() + header
                + Integer.toUnsignedLong(tstrings.get(LE_INT, header + 4))).reinterpret(length);
            default -> MemorySegment.ofAddress(tstrings.get(LE_LONG, header + 8)).reinterpret(length);
        };
    }
}
