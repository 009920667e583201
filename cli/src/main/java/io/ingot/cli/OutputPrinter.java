package io.ingot.cli;

import io.ingot.tensor.DataType;
import io.ingot.api.OutputTensor;

import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Prints output tensors for people: {@code NAME DATATYPE [shape]} and then the first values, row-major,
 * comma-separated, with a count of the ones left out.
 */
final class OutputPrinter
{
    private static final ValueLayout.OfShort SHORT_LE =
        ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG_LE =
        ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfFloat FLOAT_LE =
        ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble DOUBLE_LE =
        ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final int maxValues;

    /**
     * @param maxValues how many values to print per output at most
     */
    OutputPrinter(final int maxValues)
    {
        this.maxValues = maxValues;
    }

    /**
     * @param tensor an output
     * @param out    where to print
     */
    void print(final OutputTensor tensor, final PrintStream out)
    {
        out.println(tensor.name() + " " + tensor.dataType() + " " + TensorInputParser.text(tensor.shape()));
        out.println("  " + values(tensor.dataType(), tensor.data(), elementCount(tensor.shape())));
    }

    /**
     * @param type     element type
     * @param data     the elements
     * @param elements how many there are
     * @return the first values, comma-separated, and how many were left out
     */
    String values(final DataType type, final MemorySegment data, final long elements)
    {
        final StringBuilder text = new StringBuilder();
        final long shown = Math.min(elements, maxValues);
        long offset = 0;
        for (long i = 0; i < shown; i++)
        {
            if (i > 0)
            {
                text.append(", ");
            }
            if (type == DataType.BYTES)
            {
                final int length = data.get(INT_LE, offset);
                text.append('"').append(new String(data.asSlice(offset + Integer.BYTES, length)
                    .toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8)).append('"');
                offset += Integer.BYTES + length;
                continue;
            }
            text.append(value(type, data, i));
        }
        if (elements > shown)
        {
            text.append(", ... (").append(elements - shown).append(" more)");
        }
        return text.toString();
    }

    private static String value(final DataType type, final MemorySegment data, final long index)
    {
        return switch (type)
        {
            case FP32 -> Float.toString(data.getAtIndex(FLOAT_LE, index));
            case FP64 -> Double.toString(data.getAtIndex(DOUBLE_LE, index));
            case FP16 -> Float.toString(Float.float16ToFloat(data.getAtIndex(SHORT_LE, index)));
            case BF16 -> Float.toString(Float.intBitsToFloat((data.getAtIndex(SHORT_LE, index) & 0xffff) << 16));
            case INT8 -> Byte.toString(data.get(ValueLayout.JAVA_BYTE, index));
            case INT16 -> Short.toString(data.getAtIndex(SHORT_LE, index));
            case INT32 -> Integer.toString(data.getAtIndex(INT_LE, index));
            case INT64 -> Long.toString(data.getAtIndex(LONG_LE, index));
            case UINT8 -> Integer.toString(data.get(ValueLayout.JAVA_BYTE, index) & 0xff);
            case UINT16 -> Integer.toString(data.getAtIndex(SHORT_LE, index) & 0xffff);
            case UINT32 -> Integer.toUnsignedString(data.getAtIndex(INT_LE, index));
            case UINT64 -> Long.toUnsignedString(data.getAtIndex(LONG_LE, index));
            case BOOL -> data.get(ValueLayout.JAVA_BYTE, index) != 0 ? "true" : "false";
            case BYTES -> throw new IllegalStateException("BYTES elements are printed by values()");
        };
    }

    private static long elementCount(final long[] shape)
    {
        long count = 1;
        for (final long dim : shape)
        {
            count *= dim;
        }
        return count;
    }
}
