/*
 * STAND-IN, NOT TENSORRT. A declaration-only subset of TensorRT 10's NvInferRuntime.h, written from the
 * signatures in shared/reference/native-apis.md section 1.2/1.3 (TensorRT 10.16), so that the build of
 * ingot_trt_shim.cpp can be compile-checked (g++ -c, no link) on machines where TensorRT is not installed.
 * It proves the shim is well-formed C++ against these signatures; only a build against the real headers
 * (trt/src/main/native/build.sh on a TensorRT machine) proves it against TensorRT.
 */
#ifndef INGOT_TRT_STANDIN_NV_INFER_RUNTIME_H
#define INGOT_TRT_STANDIN_NV_INFER_RUNTIME_H

#include <cstddef>
#include <cstdint>

#define NV_TENSORRT_MAJOR 10
#define NV_TENSORRT_MINOR 16
#define NV_TENSORRT_PATCH 0
#define NV_TENSORRT_VERSION ((NV_TENSORRT_MAJOR) * 10000L + (NV_TENSORRT_MINOR) * 100L + (NV_TENSORRT_PATCH))

typedef struct CUstream_st* cudaStream_t;

extern "C" int32_t getInferLibVersion() noexcept;
extern "C" void* createInferRuntime_INTERNAL(void* logger, int32_t version) noexcept;

namespace nvinfer1
{
using AsciiChar = char;

class Dims64
{
public:
    static constexpr int32_t MAX_DIMS{8};
    int32_t nbDims;
    int64_t d[MAX_DIMS];
};
using Dims = Dims64;

enum class DataType : int32_t { kFLOAT = 0, kHALF = 1, kINT8 = 2, kINT32 = 3, kBOOL = 4, kUINT8 = 5, kFP8 = 6,
    kBF16 = 7, kINT64 = 8, kINT4 = 9, kFP4 = 10, kE8M0 = 11 };
enum class TensorIOMode : int32_t { kNONE = 0, kINPUT = 1, kOUTPUT = 2 };
enum class TensorFormat : int32_t { kLINEAR = 0 };
enum class OptProfileSelector : int32_t { kMIN = 0, kOPT = 1, kMAX = 2 };
enum class ExecutionContextAllocationStrategy : int32_t { kSTATIC = 0, kON_PROFILE_CHANGE = 1, kUSER_MANAGED = 2 };

class ILogger
{
public:
    enum class Severity : int32_t { kINTERNAL_ERROR = 0, kERROR = 1, kWARNING = 2, kINFO = 3, kVERBOSE = 4 };
    virtual void log(Severity severity, AsciiChar const* msg) noexcept = 0;
    ILogger() = default;
    virtual ~ILogger() = default;
};

class IExecutionContext
{
public:
    virtual ~IExecutionContext() noexcept = default;
    bool setOptimizationProfileAsync(int32_t profileIndex, cudaStream_t stream) noexcept;
    bool setInputShape(char const* tensorName, Dims const& dims) noexcept;
    Dims getTensorShape(char const* tensorName) const noexcept;
    bool setTensorAddress(char const* tensorName, void* data) noexcept;
    bool enqueueV3(cudaStream_t stream) noexcept;
};

class ICudaEngine
{
public:
    virtual ~ICudaEngine() noexcept = default;
    Dims getTensorShape(char const* tensorName) const noexcept;
    DataType getTensorDataType(char const* tensorName) const noexcept;
    IExecutionContext* createExecutionContext(
        ExecutionContextAllocationStrategy strategy = ExecutionContextAllocationStrategy::kSTATIC) noexcept;
    TensorIOMode getTensorIOMode(char const* tensorName) const noexcept;
    TensorFormat getTensorFormat(char const* tensorName) const noexcept;
    int32_t getNbOptimizationProfiles() const noexcept;
    Dims getProfileShape(char const* tensorName, int32_t profileIndex, OptProfileSelector select) const noexcept;
    bool isShapeInferenceIO(char const* tensorName) const noexcept;
    int32_t getNbIOTensors() const noexcept;
    char const* getIOTensorName(int32_t index) const noexcept;
};

class IRuntime
{
public:
    virtual ~IRuntime() noexcept = default;
    ICudaEngine* deserializeCudaEngine(void const* blob, std::size_t size) noexcept;
};

namespace
{
inline IRuntime* createInferRuntime(ILogger& logger) noexcept
{
    return static_cast<IRuntime*>(createInferRuntime_INTERNAL(&logger, NV_TENSORRT_VERSION));
}
} // namespace
} // namespace nvinfer1

#endif
