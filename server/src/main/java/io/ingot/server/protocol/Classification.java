package io.ingot.server.protocol;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.tensor.DataType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Triton's classification extension (server src/classification.cc, http_server.cc and grpc/infer_handler.h): an
 * output requested with {@code classification: K} is returned as a {@code BYTES} tensor of the K largest values of
 * each batch entry, as {@code "value:index"} strings, or {@code "value:index:label"} when the output has a label for
 * that index. The shape is {@code [batch, min(K, n)]} for a batching model ({@code [min(K, n)]} otherwise), where
 * {@code n} is the element count of one batch entry.
 *
 * <p>Values are printed as C++'s {@code std::to_string} prints them: integers in decimal, {@code FP32}/{@code FP64}
 * with six decimals ({@code "%f"} of the exact binary value). Only numeric types other than {@code FP16}/{@code BF16}
 * can be classified, as in Triton. Equal values keep index order (Triton's {@code std::sort} leaves their order
 * unspecified); NaN sorts last.
 *
 * <p>Stateless; thread-safe. Not a hot path: it allocates per request that asks for it.
 */
public final class Classification
{
    /** Most elements one batch entry may have (Triton's {@code kMaxClassificationElements}). */
    public static final int MAX_ELEMENTS = 1_000_000;

    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble F64 =
        ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private Classification()
    {
    }

    /**
     * The classification result: the serialized {@code BYTES} tensor (4-byte little-endian length before each
     * string) and its shape.
     *
     * @param bytes the serialized strings; owned by the caller
     * @param shape the result's shape
     */
    public record Result(ByteBuf bytes, long[] shape)
    {
    }

    /**
     * Classifies an output tensor.
     *
     * @param dataType   the output's datatype
     * @param shape      the output's shape
     * @param batchFirst whether the model batches (its first dimension is the batch)
     * @param data       the output's bytes
     * @param count      K, {@code > 0}
     * @param labels     the output's labels (index {@code i} names class {@code i}); empty for none
     * @param alloc      where the result is allocated
     * @return the {@code BYTES} result
     * @throws InferenceException INVALID_ARG with Triton's text for a datatype that cannot be classified or an entry
     *                            of more than {@link #MAX_ELEMENTS} elements
     */
    public static Result classify(final DataType dataType, final long[] shape, final boolean batchFirst,
        final MemorySegment data, final long count, final List<String> labels, final ByteBufAllocator alloc)
    {
        if (!classifiable(dataType))
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "class result not available for output due to "
                + "unsupported type '" + dataType.wireName() + "'");
        }
        final long batch = batchFirst && shape.length > 0 ? shape[0] : 0;
        long entryElements = 1;
        for (int d = batch == 0 ? 0 : 1; d < shape.length; d++)
        {
            entryElements *= shape[d];
        }
        final long entryBytes = entryElements * dataType.byteSize();
        final ByteBuf out = alloc.buffer(64);
        try
        {
            long offset = 0;
            for (long entry = 0; entry < Math.max(1, batch); entry++)
            {
                // An entry beyond the data classifies nothing, as in Triton.
                final long elements = offset + entryBytes > data.byteSize() ? 0 : entryElements;
                if (elements > MAX_ELEMENTS)
                {
                    throw new InferenceException(ErrorCode.INVALID_ARG, "classification output tensor too large");
                }
                appendTopK(out, dataType, data.asSlice(offset, elements * dataType.byteSize()), (int) elements,
                    count, labels);
                offset += entryBytes;
            }
        }
        catch (final RuntimeException failure)
        {
            out.release();
            throw failure;
        }
        final long classes = Math.min(count, entryElements);
        return new Result(out, batch > 0 ? new long[] {batch, classes} : new long[] {classes});
    }

    /**
     * Marks an output of a call as requested with {@code classification}, looking up what the result needs: the
     * output's labels ({@link InferenceCore#outputLabels}) and whether the model batches.
     *
     * @param core  the core
     * @param call  the call
     * @param plan  the output's plan entry
     * @param count K as the client sent it, an unsigned 64-bit value, {@code != 0}
     */
    public static void request(final InferenceCore core, final InferCall call, final RequestedOutput plan,
        final long count)
    {
        final String model = call.request().modelName();
        final long version = call.request().modelVersion();
        // Triton keeps K in a uint32; a larger K asks for every class, which min(K, n) gives anyway.
        final long classes = count < 0 || count > 0xFFFF_FFFFL ? 0xFFFF_FFFFL : count;
        plan.classify(classes, core.outputLabels(model, version, plan.name()),
            core.modelConfig(model, version).getMaxBatchSize() > 0);
    }

    /**
     * @param dataType a datatype
     * @return whether Triton classifies outputs of this type (the integer types, FP32 and FP64)
     */
    public static boolean classifiable(final DataType dataType)
    {
        return switch (dataType)
        {
            case UINT8, UINT16, UINT32, UINT64, INT8, INT16, INT32, INT64, FP32, FP64 -> true;
            default -> false;
        };
    }

    private static void appendTopK(final ByteBuf out, final DataType type, final MemorySegment entry,
        final int elements, final long count, final List<String> labels)
    {
        final List<Integer> order = new ArrayList<>(elements);
        for (int i = 0; i < elements; i++)
        {
            order.add(i);
        }
        order.sort(comparator(type, entry));
        final int classes = (int) Math.min(count, elements);
        for (int k = 0; k < classes; k++)
        {
            final int index = order.get(k);
            final StringBuilder text = new StringBuilder(24).append(format(type, entry, index)).append(':')
                .append(index);
            if (index < labels.size() && !labels.get(index).isEmpty())
            {
                text.append(':').append(labels.get(index));
            }
            final byte[] utf8 = text.toString().getBytes(StandardCharsets.UTF_8);
            out.writeIntLE(utf8.length).writeBytes(utf8);
        }
    }

    /** Descending by value (a stable sort keeps equal values in index order). */
    private static Comparator<Integer> comparator(final DataType type, final MemorySegment entry)
    {
        return switch (type)
        {
            case UINT8 -> Comparator.comparingInt((Integer i) -> Byte.toUnsignedInt(entry.get(ValueLayout.JAVA_BYTE,
                i))).reversed();
            case INT8 -> Comparator.comparingInt((Integer i) -> (int) entry.get(ValueLayout.JAVA_BYTE, i)).reversed();
            case UINT16 -> Comparator.comparingInt((Integer i) -> Short.toUnsignedInt(entry.get(I16, 2L * i)))
                .reversed();
            case INT16 -> Comparator.comparingInt((Integer i) -> (int) entry.get(I16, 2L * i)).reversed();
            case UINT32 -> Comparator.comparingLong((Integer i) -> Integer.toUnsignedLong(entry.get(I32, 4L * i)))
                .reversed();
            case INT32 -> Comparator.comparingInt((Integer i) -> entry.get(I32, 4L * i)).reversed();
            case UINT64 -> (a, b) -> Long.compareUnsigned(entry.get(I64, 8L * b), entry.get(I64, 8L * a));
            case INT64 -> (a, b) -> Long.compare(entry.get(I64, 8L * b), entry.get(I64, 8L * a));
            case FP32 -> (a, b) -> descendingNanLast(entry.get(F32, 4L * a), entry.get(F32, 4L * b));
            default -> (a, b) -> descendingNanLast(entry.get(F64, 8L * a), entry.get(F64, 8L * b));
        };
    }

    private static int descendingNanLast(final double a, final double b)
    {
        if (Double.isNaN(a) || Double.isNaN(b))
        {
            return Boolean.compare(Double.isNaN(a), Double.isNaN(b));
        }
        return Double.compare(b, a) == 0 ? 0 : (b > a ? 1 : -1);
    }

    private static String format(final DataType type, final MemorySegment entry, final int i)
    {
        return switch (type)
        {
            case UINT8 -> Integer.toString(Byte.toUnsignedInt(entry.get(ValueLayout.JAVA_BYTE, i)));
            case INT8 -> Integer.toString(entry.get(ValueLayout.JAVA_BYTE, i));
            case UINT16 -> Integer.toString(Short.toUnsignedInt(entry.get(I16, 2L * i)));
            case INT16 -> Integer.toString(entry.get(I16, 2L * i));
            case UINT32 -> Integer.toUnsignedString(entry.get(I32, 4L * i));
            case INT32 -> Integer.toString(entry.get(I32, 4L * i));
            case UINT64 -> Long.toUnsignedString(entry.get(I64, 8L * i));
            case INT64 -> Long.toString(entry.get(I64, 8L * i));
            case FP32 -> fixedSix(entry.get(F32, 4L * i));
            default -> fixedSix(entry.get(F64, 8L * i));
        };
    }

    /**
     * @param value a number
     * @return it as C's {@code printf("%f")} (what {@code std::to_string} uses) prints it with glibc: the exact
     *         binary value rounded half-even to six decimals; {@code nan}, {@code inf}, {@code -inf}
     */
    static String fixedSix(final double value)
    {
        if (Double.isNaN(value))
        {
            return "nan";
        }
        if (Double.isInfinite(value))
        {
            return value > 0 ? "inf" : "-inf";
        }
        final String text = new BigDecimal(value).setScale(6, RoundingMode.HALF_EVEN).toPlainString();
        // printf keeps the sign of a negative value that rounds to zero ("-0.000000"), as does -0.0 itself.
        return (value < 0 || (value == 0 && 1 / value < 0)) && !text.startsWith("-") ? "-" + text : text;
    }
}
