// ingot_trt_shim.cpp - ingot_trt_shim.h over TensorRT 10's C++ runtime API.
//
// Every entry point is noexcept and catches everything: an exception that crossed into the JVM's downcall frame
// would abort the process. TensorRT itself reports most failures by logging at severity ERROR and returning
// null/false; the logger below records such messages as the calling thread's last error so the Java side can name
// TensorRT's reason in its exception.

#include "ingot_trt_shim.h"

#include <NvInferRuntime.h>

#include <cstring>
#include <exception>
#include <new>
#include <string>

#define INGOT_TRT_STRINGIFY_(x) #x
#define INGOT_TRT_STRINGIFY(x) INGOT_TRT_STRINGIFY_(x)

namespace
{

thread_local std::string lastError;

void clearError() noexcept
{
    lastError.clear();
}

void setError(const char* where, const char* what) noexcept
{
    try
    {
        lastError.assign(where);
        lastError.append(": ");
        lastError.append(what == nullptr ? "unknown error" : what);
    }
    catch (...)
    {
        // Out of memory while describing an error: keep whatever fits; never throw from here.
    }
}

// Records TensorRT's own error messages; keeps the first one of a call, which names the cause (later ones tend to
// be consequences).
void recordTensorRtError(const char* message) noexcept
{
    if (lastError.empty())
    {
        setError("TensorRT", message);
    }
}

void setCurrentException(const char* where) noexcept
{
    try
    {
        throw;
    }
    catch (const std::exception& e)
    {
        setError(where, e.what());
    }
    catch (...)
    {
        setError(where, "non-standard C++ exception");
    }
}

// Fails a call whose handle or name argument is null, which would crash inside TensorRT.
bool missing(const void* argument, const char* where, const char* what) noexcept
{
    if (argument == nullptr)
    {
        setError(where, what);
        return true;
    }
    return false;
}

class ForwardingLogger final : public nvinfer1::ILogger
{
public:
    ForwardingLogger(ingot_trt_log_fn fn, int32_t minSeverity) noexcept : mFn(fn), mMinSeverity(minSeverity)
    {
    }

    void log(Severity severity, nvinfer1::AsciiChar const* msg) noexcept override
    {
        const auto level = static_cast<int32_t>(severity);
        if (level <= INGOT_TRT_SEVERITY_ERROR)
        {
            recordTensorRtError(msg);
        }
        if (mFn != nullptr && level <= mMinSeverity)
        {
            mFn(level, msg == nullptr ? "" : msg);
        }
    }

private:
    ingot_trt_log_fn mFn;
    int32_t mMinSeverity;
};

nvinfer1::ICudaEngine* engineOf(void* engine) noexcept
{
    return static_cast<nvinfer1::ICudaEngine*>(engine);
}

nvinfer1::IExecutionContext* contextOf(void* context) noexcept
{
    return static_cast<nvinfer1::IExecutionContext*>(context);
}

int32_t writeDims(const nvinfer1::Dims64& dims, int64_t* out, const char* where) noexcept
{
    if (dims.nbDims < 0 || dims.nbDims > INGOT_TRT_MAX_DIMS)
    {
        if (lastError.empty())
        {
            setError(where, "TensorRT returned invalid dimensions (unknown tensor name, profile or selector)");
        }
        return -1;
    }
    for (int32_t i = 0; i < dims.nbDims; ++i)
    {
        out[i] = dims.d[i];
    }
    return dims.nbDims;
}

} // namespace

extern "C" {

int32_t ingot_trt_lib_version(void)
{
    clearError();
    try
    {
        return getInferLibVersion();
    }
    catch (...)
    {
        setCurrentException("ingot_trt_lib_version");
        return -1;
    }
}

int32_t ingot_trt_header_version(void)
{
    return static_cast<int32_t>(NV_TENSORRT_VERSION);
}

const char* ingot_trt_describe(void)
{
    return "Ingot TensorRT shim, compiled against TensorRT " INGOT_TRT_STRINGIFY(NV_TENSORRT_MAJOR) "." INGOT_TRT_STRINGIFY(
        NV_TENSORRT_MINOR) "." INGOT_TRT_STRINGIFY(NV_TENSORRT_PATCH) " headers";
}

const char* ingot_trt_last_error(void)
{
    return lastError.c_str();
}

void* ingot_trt_logger_create(ingot_trt_log_fn fn, int32_t min_severity)
{
    clearError();
    if (missing(reinterpret_cast<const void*>(fn), "ingot_trt_logger_create", "null callback"))
    {
        return nullptr;
    }
    try
    {
        return new ForwardingLogger(fn, min_severity);
    }
    catch (...)
    {
        setCurrentException("ingot_trt_logger_create");
        return nullptr;
    }
}

void ingot_trt_logger_destroy(void* logger)
{
    delete static_cast<ForwardingLogger*>(logger);
}

void* ingot_trt_runtime_create(void* logger)
{
    clearError();
    if (missing(logger, "ingot_trt_runtime_create", "null logger"))
    {
        return nullptr;
    }
    try
    {
        nvinfer1::IRuntime* runtime = nvinfer1::createInferRuntime(*static_cast<ForwardingLogger*>(logger));
        if (runtime == nullptr && lastError.empty())
        {
            setError("ingot_trt_runtime_create", "createInferRuntime returned null");
        }
        return runtime;
    }
    catch (...)
    {
        setCurrentException("ingot_trt_runtime_create");
        return nullptr;
    }
}

void ingot_trt_runtime_destroy(void* runtime)
{
    try
    {
        delete static_cast<nvinfer1::IRuntime*>(runtime);
    }
    catch (...)
    {
        setCurrentException("ingot_trt_runtime_destroy");
    }
}

void* ingot_trt_engine_deserialize(void* runtime, const void* blob, size_t size)
{
    clearError();
    if (missing(runtime, "ingot_trt_engine_deserialize", "null runtime")
        || missing(blob, "ingot_trt_engine_deserialize", "null plan"))
    {
        return nullptr;
    }
    try
    {
        nvinfer1::ICudaEngine* engine
            = static_cast<nvinfer1::IRuntime*>(runtime)->deserializeCudaEngine(blob, size);
        if (engine == nullptr && lastError.empty())
        {
            setError("deserializeCudaEngine", "TensorRT could not deserialize the plan (no reason was logged)");
        }
        return engine;
    }
    catch (...)
    {
        setCurrentException("ingot_trt_engine_deserialize");
        return nullptr;
    }
}

void ingot_trt_engine_destroy(void* engine)
{
    try
    {
        delete engineOf(engine);
    }
    catch (...)
    {
        setCurrentException("ingot_trt_engine_destroy");
    }
}

int32_t ingot_trt_engine_nb_io(void* engine)
{
    clearError();
    if (missing(engine, "ingot_trt_engine_nb_io", "null engine"))
    {
        return -1;
    }
    try
    {
        return engineOf(engine)->getNbIOTensors();
    }
    catch (...)
    {
        setCurrentException("ingot_trt_engine_nb_io");
        return -1;
    }
}

const char* ingot_trt_engine_io_name(void* engine, int32_t index)
{
    clearError();
    if (missing(engine, "ingot_trt_engine_io_name", "null engine"))
    {
        return nullptr;
    }
    try
    {
        const char* name = engineOf(engine)->getIOTensorName(index);
        if (name == nullptr && lastError.empty())
        {
            setError("getIOTensorName", "index out of range");
        }
        return name;
    }
    catch (...)
    {
        setCurrentException("ingot_trt_engine_io_name");
        return nullptr;
    }
}

int32_t ingot_trt_engine_io_mode(void* engine, const char* name)
{
    clearError();
    if (missing(engine, "ingot_trt_engine_io_mode", "null engine")
        || missing(name, "ingot_trt_engine_io_mode", "null tensor name"))
    {
        return -1;
    }
    try
    {
        return static_cast<int32_t>(engineOf(engine)->getTensorIOMode(name));
    }
    catch (...)
    {
        setCurrentException("ingot_trt_engine_io_mode");
        return -1;
    }
}

int32_t ingot_trt_engine_dtype(void* engine, const char* name)
{
    clearError();
    if (missing(engine, "ingot_trt_engine_dtype", "null engine")
        || missing(name, "ingot_trt_engine_dtype", "null tensor name"))
    {
        return -1;
    }
    try
    {
        return static_cast<int32_t>(engineOf(engine)->getTensorDataType(name));
    }
    catch (...)
    {
        setCurrentException("ingot_trt_engine_dtype");
        return -1;
    }
}

int32_t ingot_trt_engine_format(void* engine, const char* name)
{
    clearError();
    if (missing(engine, "ingot_trt_engine_format", "null engine")
        || missing(name, "ingot_trt_engine_format", "null tensor name"))
    {
        return -1;
    }
    try
    {
        return static_cast<int32_t>(engineOf(engine)->getTensorFormat(name));
    }
    catch (...)
    {
        setCurrentException("ingot_trt_engine_format");
        return -1;
    }
}

int32_t ingot_trt_engine_is_shape_io(void* engine, const char* name)
{
    clearError();
    if (missing(engine, "ingot_trt_engine_is_shape_io", "null engine")
        || missing(name, "ingot_trt_engine_is_shape_io", "null tensor name"))
    {
        return -1;
    }
    try
    {
        return engineOf(engine)->isShapeInferenceIO(name) ? 1 : 0;
    }
    catch (...)
    {
        setCurrentException("ingot_trt_engine_is_shape_io");
        return -1;
    }
}

int32_t ingot_trt_engine_shape(void* engine, const char* name, int64_t* out)
{
    clearError();
    if (missing(engine, "ingot_trt_engine_shape", "null engine")
        || missing(name, "ingot_trt_engine_shape", "null tensor name")
        || missing(out, "ingot_trt_engine_shape", "null output array"))
    {
        return -1;
    }
    try
    {
        return writeDims(engineOf(engine)->getTensorShape(name), out, "getTensorShape");
    }
    catch (...)
    {
        setCurrentException("ingot_trt_engine_shape");
        return -1;
    }
}

int32_t ingot_trt_engine_nb_profiles(void* engine)
{
    clearError();
    if (missing(engine, "ingot_trt_engine_nb_profiles", "null engine"))
    {
        return -1;
    }
    try
    {
        return engineOf(engine)->getNbOptimizationProfiles();
    }
    catch (...)
    {
        setCurrentException("ingot_trt_engine_nb_profiles");
        return -1;
    }
}

int32_t ingot_trt_engine_profile_shape(void* engine, const char* name, int32_t profile, int32_t selector,
    int64_t* out)
{
    clearError();
    if (missing(engine, "ingot_trt_engine_profile_shape", "null engine")
        || missing(name, "ingot_trt_engine_profile_shape", "null tensor name")
        || missing(out, "ingot_trt_engine_profile_shape", "null output array"))
    {
        return -1;
    }
    if (selector < INGOT_TRT_PROFILE_MIN || selector > INGOT_TRT_PROFILE_MAX)
    {
        setError("ingot_trt_engine_profile_shape", "selector must be 0 (MIN), 1 (OPT) or 2 (MAX)");
        return -1;
    }
    try
    {
        const nvinfer1::Dims64 dims = engineOf(engine)->getProfileShape(
            name, profile, static_cast<nvinfer1::OptProfileSelector>(selector));
        return writeDims(dims, out, "getProfileShape");
    }
    catch (...)
    {
        setCurrentException("ingot_trt_engine_profile_shape");
        return -1;
    }
}

void* ingot_trt_context_create(void* engine, int32_t strategy)
{
    clearError();
    if (missing(engine, "ingot_trt_context_create", "null engine"))
    {
        return nullptr;
    }
    if (strategy < INGOT_TRT_ALLOC_STATIC || strategy > INGOT_TRT_ALLOC_USER_MANAGED)
    {
        setError("ingot_trt_context_create", "allocation strategy must be 0 (STATIC), 1 or 2");
        return nullptr;
    }
    try
    {
        nvinfer1::IExecutionContext* context = engineOf(engine)->createExecutionContext(
            static_cast<nvinfer1::ExecutionContextAllocationStrategy>(strategy));
        if (context == nullptr && lastError.empty())
        {
            setError("createExecutionContext", "TensorRT returned null (out of device memory?)");
        }
        return context;
    }
    catch (...)
    {
        setCurrentException("ingot_trt_context_create");
        return nullptr;
    }
}

void ingot_trt_context_destroy(void* context)
{
    try
    {
        delete contextOf(context);
    }
    catch (...)
    {
        setCurrentException("ingot_trt_context_destroy");
    }
}

int32_t ingot_trt_context_set_profile_async(void* context, int32_t profile, void* stream)
{
    clearError();
    if (missing(context, "ingot_trt_context_set_profile_async", "null context"))
    {
        return 0;
    }
    try
    {
        const bool ok
            = contextOf(context)->setOptimizationProfileAsync(profile, static_cast<cudaStream_t>(stream));
        if (!ok && lastError.empty())
        {
            setError("setOptimizationProfileAsync", "TensorRT rejected the profile index");
        }
        return ok ? 1 : 0;
    }
    catch (...)
    {
        setCurrentException("ingot_trt_context_set_profile_async");
        return 0;
    }
}

int32_t ingot_trt_context_set_input_shape(void* context, const char* name, int32_t rank, const int64_t* dims)
{
    clearError();
    if (missing(context, "ingot_trt_context_set_input_shape", "null context")
        || missing(name, "ingot_trt_context_set_input_shape", "null tensor name")
        || (rank > 0 && missing(dims, "ingot_trt_context_set_input_shape", "null dims")))
    {
        return 0;
    }
    if (rank < 0 || rank > INGOT_TRT_MAX_DIMS)
    {
        setError("ingot_trt_context_set_input_shape", "rank must be between 0 and 8");
        return 0;
    }
    try
    {
        nvinfer1::Dims64 shape{};
        shape.nbDims = rank;
        for (int32_t i = 0; i < rank; ++i)
        {
            shape.d[i] = dims[i];
        }
        const bool ok = contextOf(context)->setInputShape(name, shape);
        if (!ok && lastError.empty())
        {
            setError("setInputShape", "TensorRT rejected the shape");
        }
        return ok ? 1 : 0;
    }
    catch (...)
    {
        setCurrentException("ingot_trt_context_set_input_shape");
        return 0;
    }
}

int32_t ingot_trt_context_tensor_shape(void* context, const char* name, int64_t* out)
{
    clearError();
    if (missing(context, "ingot_trt_context_tensor_shape", "null context")
        || missing(name, "ingot_trt_context_tensor_shape", "null tensor name")
        || missing(out, "ingot_trt_context_tensor_shape", "null output array"))
    {
        return -1;
    }
    try
    {
        return writeDims(contextOf(context)->getTensorShape(name), out, "IExecutionContext::getTensorShape");
    }
    catch (...)
    {
        setCurrentException("ingot_trt_context_tensor_shape");
        return -1;
    }
}

int32_t ingot_trt_context_set_tensor_address(void* context, const char* name, void* address)
{
    clearError();
    if (missing(context, "ingot_trt_context_set_tensor_address", "null context")
        || missing(name, "ingot_trt_context_set_tensor_address", "null tensor name"))
    {
        return 0;
    }
    try
    {
        const bool ok = contextOf(context)->setTensorAddress(name, address);
        if (!ok && lastError.empty())
        {
            setError("setTensorAddress", "TensorRT rejected the address (unknown tensor or misaligned address)");
        }
        return ok ? 1 : 0;
    }
    catch (...)
    {
        setCurrentException("ingot_trt_context_set_tensor_address");
        return 0;
    }
}

int32_t ingot_trt_context_enqueue_v3(void* context, void* stream)
{
    clearError();
    if (missing(context, "ingot_trt_context_enqueue_v3", "null context"))
    {
        return 0;
    }
    try
    {
        const bool ok = contextOf(context)->enqueueV3(static_cast<cudaStream_t>(stream));
        if (!ok && lastError.empty())
        {
            setError("enqueueV3", "TensorRT could not enqueue inference (no reason was logged)");
        }
        return ok ? 1 : 0;
    }
    catch (...)
    {
        setCurrentException("ingot_trt_context_enqueue_v3");
        return 0;
    }
}

} // extern "C"
