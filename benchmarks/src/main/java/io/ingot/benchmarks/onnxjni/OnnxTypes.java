package io.ingot.benchmarks.onnxjni;

import ai.onnxruntime.TensorInfo.OnnxTensorType;
import io.ingot.tensor.DataType;

/**
 * Maps ONNX element types to Ingot's {@link DataType} and to {@code model_config.proto}'s {@code TYPE_*} names, as
 * Triton's ONNX Runtime backend does ({@code STRING} is {@code TYPE_STRING}, i.e. {@code BYTES}).
 */
final class OnnxTypes
{
    private OnnxTypes()
    {
    }

    /**
     * @param type an ONNX element type
     * @return the matching Ingot type, or {@code null} when Triton has none (complex numbers, float8, int4, ...)
     */
    static DataType fromOnnx(final OnnxTensorType type)
    {
        return switch (type)
        {
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL -> DataType.BOOL;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8 -> DataType.UINT8;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT16 -> DataType.UINT16;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT32 -> DataType.UINT32;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT64 -> DataType.UINT64;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 -> DataType.INT8;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT16 -> DataType.INT16;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32 -> DataType.INT32;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64 -> DataType.INT64;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16 -> DataType.FP16;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT -> DataType.FP32;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE -> DataType.FP64;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING -> DataType.BYTES;
            case ONNX_TENSOR_ELEMENT_DATA_TYPE_BFLOAT16 -> DataType.BF16;
            default -> null;
        };
    }

    /**
     * @param type an Ingot type
     * @return its {@code model_config.proto} enum value
     */
    static io.ingot.config.proto.DataType toConfig(final DataType type)
    {
        return io.ingot.config.proto.DataType.forNumber(type.configNumber());
    }

    /**
     * @param type an Ingot type, or {@code null}
     * @return its configuration name ({@code TYPE_FP32}, ...), or a description of an unmapped ONNX type
     */
    static String configName(final DataType type)
    {
        return type == null ? "a type Triton has no TYPE_ for" : toConfig(type).name();
    }

    /**
     * @param type an Ingot type
     * @return true when ONNX Runtime's Java API can pass tensors of this type (it has no unsigned 16/32/64-bit
     *         tensors)
     */
    static boolean isSupportedByJavaApi(final DataType type)
    {
        return switch (type)
        {
            case UINT16, UINT32, UINT64 -> false;
            default -> true;
        };
    }
}
