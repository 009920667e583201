package io.ingot.tensorflow.savedmodel;

import io.ingot.tensor.DataType;

/**
 * TensorFlow's element types ({@code types.proto}'s {@code DataType}, whose numbers {@code TF_DataType} repeats) and
 * Ingot's (Triton's): every type both have. TensorFlow's complex, quantized, resource, variant, float8 and 4-bit
 * types have no Triton equivalent; Triton's {@code BYTES} is TensorFlow's {@code DT_STRING}.
 */
public final class DataTypes
{
    private DataTypes()
    {
    }

    /**
     * @param tf a {@code DataType} number
     * @return the Ingot type, or {@code null} when Triton has none
     */
    public static DataType toIngot(final int tf)
    {
        return switch (tf)
        {
            case 1 -> DataType.FP32;
            case 2 -> DataType.FP64;
            case 3 -> DataType.INT32;
            case 4 -> DataType.UINT8;
            case 5 -> DataType.INT16;
            case 6 -> DataType.INT8;
            case 7 -> DataType.BYTES;
            case 9 -> DataType.INT64;
            case 10 -> DataType.BOOL;
            case 14 -> DataType.BF16;
            case 17 -> DataType.UINT16;
            case 19 -> DataType.FP16;
            case 22 -> DataType.UINT32;
            case 23 -> DataType.UINT64;
            default -> null;
        };
    }

    /**
     * @param type an Ingot type
     * @return its {@code DataType} number
     */
    public static int toTf(final DataType type)
    {
        return switch (type)
        {
            case FP32 -> 1;
            case FP64 -> 2;
            case INT32 -> 3;
            case UINT8 -> 4;
            case INT16 -> 5;
            case INT8 -> 6;
            case BYTES -> 7;
            case INT64 -> 9;
            case BOOL -> 10;
            case BF16 -> 14;
            case UINT16 -> 17;
            case FP16 -> 19;
            case UINT32 -> 22;
            case UINT64 -> 23;
        };
    }

    /**
     * @param tf a {@code DataType} number
     * @return its name in {@code types.proto} ({@code DT_COMPLEX64}), {@code DT_*_REF} for reference types, or
     *         {@code DataType(n)} for a number this module does not know
     */
    public static String name(final int tf)
    {
        final int base = tf > 100 ? tf - 100 : tf;
        final io.ingot.tensorflow.proto.DataType known = io.ingot.tensorflow.proto.DataType.forNumber(base);
        if (known == null)
        {
            return "DataType(" + tf + ")";
        }
        return known.name() + (tf > 100 ? "_REF" : "");
    }
}
