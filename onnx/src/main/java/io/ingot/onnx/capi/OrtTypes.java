package io.ingot.onnx.capi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Reads an {@code OrtTypeInfo} or a tensor's {@code OrtTensorTypeAndShapeInfo} into Java values. */
public final class OrtTypes
{
    private OrtTypes()
    {
    }

    /**
     * @param name     the input's or output's name
     * @param typeInfo an {@code OrtTypeInfo*} (not released here)
     * @param arena    scratch memory for out-parameters
     * @return its description
     */
    static OrtTensorInfo describe(final String name, final MemorySegment typeInfo, final Arena arena)
    {
        final MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
        final MemorySegment kind = arena.allocate(ValueLayout.JAVA_INT);
        OrtValueApi.GetOnnxTypeFromTypeInfo(typeInfo, kind);
        final int onnxType = kind.get(ValueLayout.JAVA_INT, 0);
        OrtValueApi.CastTypeInfoToTensorInfo(typeInfo, out);
        final MemorySegment tensor = out.get(ValueLayout.ADDRESS, 0);
        if (onnxType != OrtApi.ONNX_TYPE_TENSOR || tensor.address() == 0)
        {
            return new OrtTensorInfo(name, onnxType, 0, new long[0], new String[0]);
        }
        final Shape shape = shape(tensor, true);
        return new OrtTensorInfo(name, onnxType, shape.elementType(), shape.dims(), shape.names());
    }

    /**
     * A tensor's element type and shape.
     *
     * @param elementType its {@code ONNXTensorElementDataType}
     * @param dims        its dimensions
     * @param names       the dimensions' symbols ({@code ""} where none), or {@code null} when not asked for
     */
    public record Shape(int elementType, long[] dims, String[] names)
    {
    }

    /**
     * @param info    an {@code OrtTensorTypeAndShapeInfo*} (not released here)
     * @param symbols whether to read the symbolic dimension names as well
     * @return the element type and shape it describes
     */
    public static Shape shape(final MemorySegment info, final boolean symbols)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment value = arena.allocate(ValueLayout.JAVA_LONG);
            OrtValueApi.GetTensorElementType(info, value);
            final int elementType = value.get(ValueLayout.JAVA_INT, 0);
            OrtValueApi.GetDimensionsCount(info, value);
            final int rank = Math.toIntExact(value.get(ValueLayout.JAVA_LONG, 0));
            final MemorySegment dims = arena.allocate(ValueLayout.JAVA_LONG, Math.max(1, rank));
            OrtValueApi.GetDimensions(info, dims, rank);
            final long[] shape = new long[rank];
            MemorySegment.copy(dims, ValueLayout.JAVA_LONG, 0, shape, 0, rank);
            String[] names = null;
            if (symbols)
            {
                final MemorySegment pointers = arena.allocate(ValueLayout.ADDRESS, Math.max(1, rank));
                OrtValueApi.GetSymbolicDimensions(info, pointers, rank);
                names = new String[rank];
                for (int d = 0; d < rank; d++)
                {
                    names[d] = OrtApi.string(pointers.getAtIndex(ValueLayout.ADDRESS, d));
                }
            }
            return new Shape(elementType, shape, names);
        }
    }

    /**
     * Reads the element type and shape of a tensor value.
     *
     * @param value an {@code OrtValue*} holding a tensor
     * @return its element type and shape (no symbols)
     */
    public static Shape ofValue(final MemorySegment value)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            OrtValueApi.GetTensorTypeAndShape(value, out);
            final MemorySegment info = out.get(ValueLayout.ADDRESS, 0);
            try
            {
                return shape(info, false);
            }
            finally
            {
                OrtValueApi.ReleaseTensorTypeAndShapeInfo(info);
            }
        }
    }

    /**
     * @param elementType an {@code ONNXTensorElementDataType}
     * @return its name in the header without the prefix ({@code FLOAT}, {@code UINT64}, ...)
     */
    public static String elementTypeName(final int elementType)
    {
        return switch (elementType)
        {
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT -> "FLOAT";
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8 -> "UINT8";
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 -> "INT8";
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT16 -> "UINT16";
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_INT16 -> "INT16";
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32 -> "INT32";
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64 -> "INT64";
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING -> "STRING";
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL -> "BOOL";
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16 -> "FLOAT16";
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE -> "DOUBLE";
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT32 -> "UINT32";
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT64 -> "UINT64";
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_COMPLEX64 -> "COMPLEX64";
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_COMPLEX128 -> "COMPLEX128";
            case OrtApi.ONNX_TENSOR_ELEMENT_DATA_TYPE_BFLOAT16 -> "BFLOAT16";
            default -> "ONNXTensorElementDataType(" + elementType + ")";
        };
    }
}
