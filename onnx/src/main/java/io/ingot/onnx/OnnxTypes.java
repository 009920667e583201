package io.ingot.onnx;

import io.ingot.onnx.capi.OrtApi;
import io.ingot.tensor.DataType;

/**
 * Maps ONNX element types ({@code ONNXTensorElementDataType}) to Ingot's {@link DataType} and back, and to
 * {@code model_config.proto}'s {@code TYPE_*} names, as Triton's ONNX Runtime backend does ({@code STRING} is
 * {@code TYPE_STRING}, i.e. {@code BYTES}). Every type ONNX Runtime and Triton share is served.
 */
final class OnnxTypes
{
    private OnnxTypes()
    {
    }

    /**
     * @param elementType an {@code ONNXTensorElementDataType}
     * @return the matching Ingot type, or {@code null} when Triton has none (complex numbers, float8, int4, ...)
     */
    static DataType fromOnnx(final int elementType)
    {
        return switch (elementType)
        {
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL -> DataType.BOOL;
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8 -> DataType.UINT8;
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT16 -> DataType.UINT16;
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT32 -> DataType.UINT32;
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT64 -> DataType.UINT64;
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 -> DataType.INT8;
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_INT16 -> DataType.INT16;
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32 -> DataType.INT32;
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64 -> DataType.INT64;
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16 -> DataType.FP16;
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT -> DataType.FP32;
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE -> DataType.FP64;
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING -> DataType.BYTES;
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_BFLOAT16 -> DataType.BF16;
            default -> null;
        };
    }

    /**
     * @param type an Ingot type
     * @return its {@code ONNXTensorElementDataType}
     */
    static int toOnnx(final DataType type)
    {
        return switch (type)
        {
            case BOOL -> OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL;
            case UINT8 -> OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8;
            case UINT16 -> OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT16;
            case UINT32 -> OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT32;
            case UINT64 -> OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT64;
            case INT8 -> OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8;
            case INT16 -> OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_INT16;
            case INT32 -> OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32;
            case INT64 -> OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64;
            case FP16 -> OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16;
            case FP32 -> OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT;
            case FP64 -> OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE;
            case BYTES -> OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING;
            case BF16 -> OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_BFLOAT16;
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
}
