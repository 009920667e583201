/*
 * ingot_trt_shim.h - the C surface Ingot binds with Java's Foreign Function & Memory API.
 *
 * TensorRT has only a C++ API. This header is the small extern "C" layer in between: opaque handles, enums as
 * int32_t, no struct returns (a shape is written into a caller-owned int64_t[8] and its rank returned), no C++
 * types and no exceptions across it. ingot_trt_shim.cpp implements it over TensorRT 10; the test double
 * trt/src/test/native/fake_trt_shim.c implements it over a trivial engine format of its own so the Java binding
 * can be tested where TensorRT is not installed.
 *
 * Errors: a function that fails returns NULL, -1 or 0 (as documented per function) and records a message that
 * ingot_trt_last_error() returns on the same thread until the next shim call on that thread. Messages TensorRT
 * logs at severity INTERNAL_ERROR or ERROR during a call are recorded the same way, so a failed
 * deserialize or setInputShape reports TensorRT's own reason.
 *
 * Threads: the logger callback may be called on any thread, including threads TensorRT creates; it must not
 * throw (a Java upcall that throws terminates the JVM) and must return quickly. Handles follow TensorRT's rules:
 * a runtime and an engine may be shared by threads; an execution context is used by one thread at a time.
 * Destroy in the order contexts, engines, runtimes, and the logger last.
 */
#ifndef INGOT_TRT_SHIM_H
#define INGOT_TRT_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define INGOT_TRT_API __attribute__((visibility("default")))
#else
#define INGOT_TRT_API
#endif

/* The most dimensions a tensor shape has (TensorRT's Dims64::MAX_DIMS). Shape out-parameters hold this many. */
#define INGOT_TRT_MAX_DIMS 8

/* Logger severities (nvinfer1::ILogger::Severity). */
#define INGOT_TRT_SEVERITY_INTERNAL_ERROR 0
#define INGOT_TRT_SEVERITY_ERROR 1
#define INGOT_TRT_SEVERITY_WARNING 2
#define INGOT_TRT_SEVERITY_INFO 3
#define INGOT_TRT_SEVERITY_VERBOSE 4

/* Tensor I/O modes (nvinfer1::TensorIOMode). */
#define INGOT_TRT_IO_NONE 0
#define INGOT_TRT_IO_INPUT 1
#define INGOT_TRT_IO_OUTPUT 2

/* Optimization-profile selectors (nvinfer1::OptProfileSelector). */
#define INGOT_TRT_PROFILE_MIN 0
#define INGOT_TRT_PROFILE_OPT 1
#define INGOT_TRT_PROFILE_MAX 2

/* Execution-context allocation strategies (nvinfer1::ExecutionContextAllocationStrategy). */
#define INGOT_TRT_ALLOC_STATIC 0
#define INGOT_TRT_ALLOC_ON_PROFILE_CHANGE 1
#define INGOT_TRT_ALLOC_USER_MANAGED 2

/* Data types (nvinfer1::DataType) and tensor formats (nvinfer1::TensorFormat) are passed through unchanged:
 * kFLOAT 0, kHALF 1, kINT8 2, kINT32 3, kBOOL 4, kUINT8 5, kFP8 6, kBF16 7, kINT64 8, kINT4 9, kFP4 10, kE8M0 11;
 * kLINEAR 0, kCHW2 1, kHWC8 2, kCHW4 3, kCHW16 4, kCHW32 5, kDHWC8 6, kCDHW32 7, kHWC 8, kDLA_LINEAR 9,
 * kDLA_HWC4 10, kHWC16 11, kDHWC 12. */

/* Receives every message at or above the logger's minimum severity. 'message' is valid only during the call. */
typedef void (*ingot_trt_log_fn)(int32_t severity, const char* message);

/* ---- library ------------------------------------------------------------------------------------------------ */

/* getInferLibVersion() of the loaded TensorRT: major*10000 + minor*100 + patch (10.16.0 -> 101600). */
INGOT_TRT_API int32_t ingot_trt_lib_version(void);

/* NV_TENSORRT_VERSION of the headers the shim was compiled against, in the same format. */
INGOT_TRT_API int32_t ingot_trt_header_version(void);

/* A static, human-readable description of this implementation (what it wraps and which version). */
INGOT_TRT_API const char* ingot_trt_describe(void);

/* The calling thread's last error message, "" when the last call succeeded. Valid until the thread's next call. */
INGOT_TRT_API const char* ingot_trt_last_error(void);

/* ---- logger ------------------------------------------------------------------------------------------------- */

/* Creates a logger forwarding messages of severity <= min_severity (0 most severe .. 4 verbose) to 'fn'.
 * Returns NULL on failure. The logger must outlive every runtime created with it. */
INGOT_TRT_API void* ingot_trt_logger_create(ingot_trt_log_fn fn, int32_t min_severity);
INGOT_TRT_API void ingot_trt_logger_destroy(void* logger);

/* ---- runtime ------------------------------------------------------------------------------------------------ */

/* createInferRuntime(logger). Returns NULL on failure. */
INGOT_TRT_API void* ingot_trt_runtime_create(void* logger);
INGOT_TRT_API void ingot_trt_runtime_destroy(void* runtime);

/* ---- engine ------------------------------------------------------------------------------------------------- */

/* IRuntime::deserializeCudaEngine(blob, size). Returns NULL (and records TensorRT's reason) on failure.
 * The blob may be freed when this returns. */
INGOT_TRT_API void* ingot_trt_engine_deserialize(void* runtime, const void* blob, size_t size);
INGOT_TRT_API void ingot_trt_engine_destroy(void* engine);

/* Number of I/O tensors, or -1 on failure. */
INGOT_TRT_API int32_t ingot_trt_engine_nb_io(void* engine);

/* Name of I/O tensor 'index' (0 <= index < nb_io), valid as long as the engine; NULL on failure. */
INGOT_TRT_API const char* ingot_trt_engine_io_name(void* engine, int32_t index);

/* INGOT_TRT_IO_INPUT / _OUTPUT, INGOT_TRT_IO_NONE for an unknown name, -1 on failure. */
INGOT_TRT_API int32_t ingot_trt_engine_io_mode(void* engine, const char* name);

/* nvinfer1::DataType of the tensor, -1 on failure. */
INGOT_TRT_API int32_t ingot_trt_engine_dtype(void* engine, const char* name);

/* nvinfer1::TensorFormat of the tensor, -1 on failure. */
INGOT_TRT_API int32_t ingot_trt_engine_format(void* engine, const char* name);

/* 1 when the tensor is a shape tensor (its values, not only its shape, feed shape inference), 0 when not,
 * -1 on failure. */
INGOT_TRT_API int32_t ingot_trt_engine_is_shape_io(void* engine, const char* name);

/* Engine-level shape (-1 for a dimension that is dynamic) into out[INGOT_TRT_MAX_DIMS]; returns the rank,
 * or -1 on failure. */
INGOT_TRT_API int32_t ingot_trt_engine_shape(void* engine, const char* name, int64_t* out);

/* Number of optimization profiles (at least 1 for a valid engine), -1 on failure. */
INGOT_TRT_API int32_t ingot_trt_engine_nb_profiles(void* engine);

/* The MIN/OPT/MAX shape of input 'name' in 'profile' into out[INGOT_TRT_MAX_DIMS]; returns the rank, or -1 for an
 * invalid profile, selector or name (and for outputs, which profiles do not describe). */
INGOT_TRT_API int32_t ingot_trt_engine_profile_shape(void* engine, const char* name, int32_t profile,
    int32_t selector, int64_t* out);

/* ---- execution context -------------------------------------------------------------------------------------- */

/* ICudaEngine::createExecutionContext(strategy). Returns NULL on failure. */
INGOT_TRT_API void* ingot_trt_context_create(void* engine, int32_t strategy);
INGOT_TRT_API void ingot_trt_context_destroy(void* context);

/* setOptimizationProfileAsync(profile, stream); 1 on success, 0 on failure. Call before set_input_shape. */
INGOT_TRT_API int32_t ingot_trt_context_set_profile_async(void* context, int32_t profile, void* stream);

/* setInputShape(name, dims[0..rank)); 1 on success, 0 on failure (e.g. outside the profile's MIN..MAX). */
INGOT_TRT_API int32_t ingot_trt_context_set_input_shape(void* context, const char* name, int32_t rank,
    const int64_t* dims);

/* Resolved shape of a tensor after the input shapes are set, into out[INGOT_TRT_MAX_DIMS]; returns the rank, or
 * -1 on failure. An output dimension that stays -1 depends on data. */
INGOT_TRT_API int32_t ingot_trt_context_tensor_shape(void* context, const char* name, int64_t* out);

/* setTensorAddress(name, address); 1 on success, 0 on failure. Addresses should be 256-byte aligned. */
INGOT_TRT_API int32_t ingot_trt_context_set_tensor_address(void* context, const char* name, void* address);

/* enqueueV3(stream): queues inference on 'stream' (a cudaStream_t); 1 on success, 0 on failure. */
INGOT_TRT_API int32_t ingot_trt_context_enqueue_v3(void* context, void* stream);

#ifdef __cplusplus
}
#endif

#endif /* INGOT_TRT_SHIM_H */
