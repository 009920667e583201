package io.ingot.onnx.capi;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static io.ingot.onnx.capi.OrtApi.C_INT;
import static io.ingot.onnx.capi.OrtApi.C_POINTER;
import static io.ingot.onnx.capi.OrtApi.SIZE_T;

/**
 * ONNX Runtime's values and their type information, from {@code OrtApi}: memory info, the default allocator, tensors
 * over caller memory ({@code CreateTensorWithDataAsOrtValue}) or allocated by ONNX Runtime, string tensor elements,
 * and the type, shape and symbolic dimensions of a tensor ({@code OrtTypeInfo}, {@code OrtTensorTypeAndShapeInfo}).
 *
 * <p>Each method calls its C function through the {@code OrtApi} slot {@link OrtApi#downcall} resolved once, with the
 * C function's arguments: handles, C strings and out-parameters are {@link MemorySegment}s. A function that returns an
 * {@code OrtStatus*} throws {@link OrtException} (function, code, message) when it is not {@code NULL}. Thread-safe;
 * ONNX Runtime's rules apply to the objects passed.
 */
public final class OrtValueApi
{
    private OrtValueApi()
    {
    }

    private static final MethodHandle GET_ONNX_TYPE_FROM_TYPE_INFO = OrtApi.downcall("GetOnnxTypeFromTypeInfo", 56,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER), OrtApi.CRITICAL);
    private static final MethodHandle CAST_TYPE_INFO_TO_TENSOR_INFO = OrtApi.downcall("CastTypeInfoToTensorInfo", 55,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER), OrtApi.CRITICAL);
    private static final MethodHandle RELEASE_TYPE_INFO = OrtApi.downcall("ReleaseTypeInfo", 98,
        FunctionDescriptor.ofVoid(C_POINTER));
    private static final MethodHandle GET_TENSOR_ELEMENT_TYPE = OrtApi.downcall("GetTensorElementType", 60,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER), OrtApi.CRITICAL);
    private static final MethodHandle GET_DIMENSIONS_COUNT = OrtApi.downcall("GetDimensionsCount", 61,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER), OrtApi.CRITICAL);
    private static final MethodHandle GET_DIMENSIONS = OrtApi.downcall("GetDimensions", 62,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, SIZE_T), OrtApi.CRITICAL);
    private static final MethodHandle GET_SYMBOLIC_DIMENSIONS = OrtApi.downcall("GetSymbolicDimensions", 63,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, SIZE_T), OrtApi.CRITICAL);
    private static final MethodHandle GET_TENSOR_SHAPE_ELEMENT_COUNT = OrtApi.downcall("GetTensorShapeElementCount", 64,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER), OrtApi.CRITICAL);
    private static final MethodHandle RELEASE_TENSOR_TYPE_AND_SHAPE_INFO = OrtApi.downcall(
        "ReleaseTensorTypeAndShapeInfo", 99,
        FunctionDescriptor.ofVoid(C_POINTER));
    private static final MethodHandle CREATE_CPU_MEMORY_INFO = OrtApi.downcall("CreateCpuMemoryInfo", 69,
        FunctionDescriptor.of(C_POINTER, C_INT, C_INT, C_POINTER));
    private static final MethodHandle MEMORY_INFO_GET_NAME = OrtApi.downcall("MemoryInfoGetName", 71,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER), OrtApi.CRITICAL);
    private static final MethodHandle RELEASE_MEMORY_INFO = OrtApi.downcall("ReleaseMemoryInfo", 94,
        FunctionDescriptor.ofVoid(C_POINTER));
    private static final MethodHandle GET_ALLOCATOR_WITH_DEFAULT_OPTIONS = OrtApi.downcall(
        "GetAllocatorWithDefaultOptions", 78,
        FunctionDescriptor.of(C_POINTER, C_POINTER));
    private static final MethodHandle ALLOCATOR_FREE = OrtApi.downcall("AllocatorFree", 76,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle CREATE_TENSOR_AS_ORT_VALUE = OrtApi.downcall("CreateTensorAsOrtValue", 48,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, SIZE_T, C_INT, C_POINTER));
    private static final MethodHandle CREATE_TENSOR_WITH_DATA_AS_ORT_VALUE = OrtApi.downcall(
        "CreateTensorWithDataAsOrtValue", 49,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER, SIZE_T, C_POINTER, SIZE_T, C_INT, C_POINTER));
    private static final MethodHandle IS_TENSOR = OrtApi.downcall("IsTensor", 50,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER), OrtApi.CRITICAL);
    private static final MethodHandle GET_TENSOR_MUTABLE_DATA = OrtApi.downcall("GetTensorMutableData", 51,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER), OrtApi.CRITICAL);
    private static final MethodHandle GET_TENSOR_TYPE_AND_SHAPE = OrtApi.downcall("GetTensorTypeAndShape", 65,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER));
    private static final MethodHandle GET_VALUE_TYPE = OrtApi.downcall("GetValueType", 67,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER), OrtApi.CRITICAL);
    private static final MethodHandle GET_STRING_TENSOR_DATA_LENGTH = OrtApi.downcall("GetStringTensorDataLength", 53,
        FunctionDescriptor.of(C_POINTER, C_POINTER, C_POINTER), OrtApi.CRITICAL);
    private static final MethodHandle GET_STRING_TENSOR_ELEMENT_LENGTH = OrtApi.downcall(
        "GetStringTensorElementLength", 127,
        FunctionDescriptor.of(C_POINTER, C_POINTER, SIZE_T, C_POINTER), OrtApi.CRITICAL);
    private static final MethodHandle GET_STRING_TENSOR_ELEMENT = OrtApi.downcall("GetStringTensorElement", 128,
        FunctionDescriptor.of(C_POINTER, C_POINTER, SIZE_T, SIZE_T, C_POINTER), OrtApi.CRITICAL);
    private static final MethodHandle GET_RESIZED_STRING_TENSOR_ELEMENT_BUFFER = OrtApi.downcall(
        "GetResizedStringTensorElementBuffer", 252,
        FunctionDescriptor.of(C_POINTER, C_POINTER, SIZE_T, SIZE_T, C_POINTER));
    private static final MethodHandle RELEASE_VALUE = OrtApi.downcall("ReleaseValue", 96,
        FunctionDescriptor.ofVoid(C_POINTER));

    /** {@code OrtStatus* GetOnnxTypeFromTypeInfo(const OrtTypeInfo*, enum ONNXType* out)} */
    public static void GetOnnxTypeFromTypeInfo(final MemorySegment typeInfo, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) GET_ONNX_TYPE_FROM_TYPE_INFO.invokeExact(typeInfo, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("GetOnnxTypeFromTypeInfo", status);
    }

    /** {@code OrtStatus* CastTypeInfoToTensorInfo(const OrtTypeInfo*, const OrtTensorTypeAndShapeInfo** out)} */
    public static void CastTypeInfoToTensorInfo(final MemorySegment typeInfo, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) CAST_TYPE_INFO_TO_TENSOR_INFO.invokeExact(typeInfo, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("CastTypeInfoToTensorInfo", status);
    }

    /** {@code void ReleaseTypeInfo(OrtTypeInfo*)} */
    public static void ReleaseTypeInfo(final MemorySegment typeInfo)
    {
        try
        {
            RELEASE_TYPE_INFO.invokeExact(typeInfo);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
    }

    /**
     * {@code OrtStatus* GetTensorElementType(const OrtTensorTypeAndShapeInfo*, enum ONNXTensorElementDataType* out)}
     */
    public static void GetTensorElementType(final MemorySegment info, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) GET_TENSOR_ELEMENT_TYPE.invokeExact(info, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("GetTensorElementType", status);
    }

    /** {@code OrtStatus* GetDimensionsCount(const OrtTensorTypeAndShapeInfo*, size_t* out)} */
    public static void GetDimensionsCount(final MemorySegment info, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) GET_DIMENSIONS_COUNT.invokeExact(info, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("GetDimensionsCount", status);
    }

    /** {@code OrtStatus* GetDimensions(const OrtTensorTypeAndShapeInfo*, int64_t* dim_values, size_t length)} */
    public static void GetDimensions(final MemorySegment info, final MemorySegment dims, final long count)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) GET_DIMENSIONS.invokeExact(info, dims, count);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("GetDimensions", status);
    }

    /**
     * {@code OrtStatus* GetSymbolicDimensions(const OrtTensorTypeAndShapeInfo*, const char* dim_params[],
     *     size_t length)}
     */
    public static void GetSymbolicDimensions(final MemorySegment info, final MemorySegment names, final long count)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) GET_SYMBOLIC_DIMENSIONS.invokeExact(info, names, count);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("GetSymbolicDimensions", status);
    }

    /** {@code OrtStatus* GetTensorShapeElementCount(const OrtTensorTypeAndShapeInfo*, size_t* out)} */
    public static void GetTensorShapeElementCount(final MemorySegment info, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) GET_TENSOR_SHAPE_ELEMENT_COUNT.invokeExact(info, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("GetTensorShapeElementCount", status);
    }

    /** {@code void ReleaseTensorTypeAndShapeInfo(OrtTensorTypeAndShapeInfo*)} */
    public static void ReleaseTensorTypeAndShapeInfo(final MemorySegment info)
    {
        try
        {
            RELEASE_TENSOR_TYPE_AND_SHAPE_INFO.invokeExact(info);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
    }

    /** {@code OrtStatus* CreateCpuMemoryInfo(enum OrtAllocatorType, enum OrtMemType, OrtMemoryInfo** out)} */
    public static void CreateCpuMemoryInfo(final int allocatorType, final int memType, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) CREATE_CPU_MEMORY_INFO.invokeExact(allocatorType, memType, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("CreateCpuMemoryInfo", status);
    }

    /** {@code OrtStatus* MemoryInfoGetName(const OrtMemoryInfo*, const char** out)} */
    public static void MemoryInfoGetName(final MemorySegment info, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) MEMORY_INFO_GET_NAME.invokeExact(info, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("MemoryInfoGetName", status);
    }

    /** {@code void ReleaseMemoryInfo(OrtMemoryInfo*)} */
    public static void ReleaseMemoryInfo(final MemorySegment info)
    {
        try
        {
            RELEASE_MEMORY_INFO.invokeExact(info);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
    }

    /** {@code OrtStatus* GetAllocatorWithDefaultOptions(OrtAllocator** out)} */
    public static void GetAllocatorWithDefaultOptions(final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) GET_ALLOCATOR_WITH_DEFAULT_OPTIONS.invokeExact(out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("GetAllocatorWithDefaultOptions", status);
    }

    /** {@code OrtStatus* AllocatorFree(OrtAllocator*, void* p)} */
    public static void AllocatorFree(final MemorySegment allocator, final MemorySegment p)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) ALLOCATOR_FREE.invokeExact(allocator, p);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("AllocatorFree", status);
    }

    /**
     * {@code OrtStatus* CreateTensorAsOrtValue(OrtAllocator*, const int64_t* shape, size_t shape_len,
     *     ONNXTensorElementDataType, OrtValue** out)}
     */
    public static void CreateTensorAsOrtValue(final MemorySegment allocator, final MemorySegment shape, final long rank,
        final int type, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) CREATE_TENSOR_AS_ORT_VALUE.invokeExact(allocator, shape, rank, type, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("CreateTensorAsOrtValue", status);
    }

    /**
     * {@code OrtStatus* CreateTensorWithDataAsOrtValue(const OrtMemoryInfo*, void* p_data, size_t p_data_len,
     *     const int64_t* shape, size_t shape_len, ONNXTensorElementDataType, OrtValue** out)}
     */
    public static void CreateTensorWithDataAsOrtValue(final MemorySegment info, final MemorySegment data,
        final long byteSize, final MemorySegment shape, final long rank, final int type, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) CREATE_TENSOR_WITH_DATA_AS_ORT_VALUE.invokeExact(info, data, byteSize, shape, rank,
                type, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("CreateTensorWithDataAsOrtValue", status);
    }

    /** {@code OrtStatus* IsTensor(const OrtValue*, int* out)} */
    public static void IsTensor(final MemorySegment value, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) IS_TENSOR.invokeExact(value, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("IsTensor", status);
    }

    /** {@code OrtStatus* GetTensorMutableData(OrtValue*, void** out)} */
    public static void GetTensorMutableData(final MemorySegment value, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) GET_TENSOR_MUTABLE_DATA.invokeExact(value, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("GetTensorMutableData", status);
    }

    /** {@code OrtStatus* GetTensorTypeAndShape(const OrtValue*, OrtTensorTypeAndShapeInfo** out)} */
    public static void GetTensorTypeAndShape(final MemorySegment value, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) GET_TENSOR_TYPE_AND_SHAPE.invokeExact(value, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("GetTensorTypeAndShape", status);
    }

    /** {@code OrtStatus* GetValueType(const OrtValue*, enum ONNXType* out)} */
    public static void GetValueType(final MemorySegment value, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) GET_VALUE_TYPE.invokeExact(value, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("GetValueType", status);
    }

    /** {@code OrtStatus* GetStringTensorDataLength(const OrtValue*, size_t* len)} */
    public static void GetStringTensorDataLength(final MemorySegment value, final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) GET_STRING_TENSOR_DATA_LENGTH.invokeExact(value, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("GetStringTensorDataLength", status);
    }

    /** {@code OrtStatus* GetStringTensorElementLength(const OrtValue*, size_t index, size_t* out)} */
    public static void GetStringTensorElementLength(final MemorySegment value, final long index,
        final MemorySegment out)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) GET_STRING_TENSOR_ELEMENT_LENGTH.invokeExact(value, index, out);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("GetStringTensorElementLength", status);
    }

    /** {@code OrtStatus* GetStringTensorElement(const OrtValue*, size_t s_len, size_t index, void* s)} */
    public static void GetStringTensorElement(final MemorySegment value, final long length, final long index,
        final MemorySegment target)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) GET_STRING_TENSOR_ELEMENT.invokeExact(value, length, index, target);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("GetStringTensorElement", status);
    }

    /**
     * {@code OrtStatus* GetResizedStringTensorElementBuffer(OrtValue*, size_t index, size_t length_in_bytes,
     *     char** buffer)}
     */
    public static void GetResizedStringTensorElementBuffer(final MemorySegment value, final long index,
        final long length, final MemorySegment buffer)
    {
        final MemorySegment status;
        try
        {
            status = (MemorySegment) GET_RESIZED_STRING_TENSOR_ELEMENT_BUFFER.invokeExact(value, index, length, buffer);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
        OrtApi.check("GetResizedStringTensorElementBuffer", status);
    }

    /** {@code void ReleaseValue(OrtValue*)} */
    public static void ReleaseValue(final MemorySegment value)
    {
        try
        {
            RELEASE_VALUE.invokeExact(value);
        }
        catch (final Throwable t)
        {
            throw OrtApi.rethrow(t);
        }
    }
}
