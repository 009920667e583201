package io.ingot.pytorch;

import io.ingot.tensor.DataType;

/**
 * Element types between Triton's configuration and libtorch as DJL's JNI names them.
 *
 * <p>Triton's PyTorch backend maps BOOL, UINT8, INT8, INT16, INT32, INT64, FP16, FP32 and FP64 to torch tensors and
 * STRING to a 1-D {@code List[str]} ({@code ModelConfigDataTypeToTorchType}); UINT16/32/64 and BF16 it does not map.
 * DJL 0.36's JNI creates and reads tensors of every one of those but INT16: its dtype table
 * ({@code djl_pytorch_utils.h}, {@code GetScalarTypeFromDType}) stops at bool and complex64, and a tensor it cannot
 * name comes back as {@code UNKNOWN}. So this backend takes the other eight and STRING.
 */
final class TorchTypes
{
    private TorchTypes()
    {
    }

    /**
     * @param type a configuration type
     * @return whether libtorch takes it as a tensor through DJL
     */
    static boolean isTensorType(final DataType type)
    {
        return toDjl(type) != null;
    }

    /**
     * @param type a configuration type
     * @return DJL's name of the torch dtype, or {@code null} when it has none (STRING, INT16, the unsigned wider
     *         types, BF16)
     */
    static ai.djl.ndarray.types.DataType toDjl(final DataType type)
    {
        return switch (type)
        {
            case BOOL -> ai.djl.ndarray.types.DataType.BOOLEAN;
            case UINT8 -> ai.djl.ndarray.types.DataType.UINT8;
            case INT8 -> ai.djl.ndarray.types.DataType.INT8;
            case INT32 -> ai.djl.ndarray.types.DataType.INT32;
            case INT64 -> ai.djl.ndarray.types.DataType.INT64;
            case FP16 -> ai.djl.ndarray.types.DataType.FLOAT16;
            case FP32 -> ai.djl.ndarray.types.DataType.FLOAT32;
            case FP64 -> ai.djl.ndarray.types.DataType.FLOAT64;
            default -> null;
        };
    }

    /**
     * @param type the dtype of a tensor libtorch returned, as DJL reports it
     * @return the configuration type, or {@code null} when Triton has none for it (or DJL could not name it)
     */
    static DataType fromDjl(final ai.djl.ndarray.types.DataType type)
    {
        return switch (type)
        {
            case BOOLEAN -> DataType.BOOL;
            case UINT8 -> DataType.UINT8;
            case INT8 -> DataType.INT8;
            case INT32 -> DataType.INT32;
            case INT64 -> DataType.INT64;
            case FLOAT16 -> DataType.FP16;
            case FLOAT32 -> DataType.FP32;
            case FLOAT64 -> DataType.FP64;
            default -> null;
        };
    }

    /**
     * Why a configuration type cannot be used, in Triton's words with the reason here.
     *
     * @param type      the configured type
     * @param direction {@code input} or {@code output}
     * @param tensor    the tensor's name
     * @param model     the model's name
     * @return the message, or {@code null} when the type is supported
     */
    static String unsupported(final DataType type, final String direction, final String tensor, final String model)
    {
        if (type == DataType.BYTES || isTensorType(type))
        {
            return null;
        }
        final String triton = "unsupported datatype " + configName(type) + " for " + direction + " '" + tensor
            + "' for model '" + model + "'";
        if (type == DataType.INT16)
        {
            return triton + ": Triton's PyTorch backend maps it to torch.int16, but DJL's PyTorch JNI (0.36) has no"
                + " int16 tensors; use TYPE_INT32";
        }
        return triton + ": libtorch takes TYPE_BOOL, TYPE_UINT8, TYPE_INT8, TYPE_INT32, TYPE_INT64, TYPE_FP16,"
            + " TYPE_FP32, TYPE_FP64 and TYPE_STRING (a List[str]) here";
    }

    /**
     * @param type a type, or {@code null}
     * @return its configuration spelling ({@code TYPE_FP32}; {@code TYPE_STRING} for BYTES; {@code TYPE_INVALID})
     */
    static String configName(final DataType type)
    {
        if (type == null)
        {
            return "TYPE_INVALID";
        }
        return type == DataType.BYTES ? "TYPE_STRING" : "TYPE_" + type.name();
    }
}
