/**
 * FFM binding of Ingot's TensorRT shim ({@code trt/src/main/native/ingot_trt_shim.h}): the raw calls
 * ({@link io.ingot.trt.shim.TrtShim}), the process-wide logger upcall ({@link io.ingot.trt.shim.TrtLogger}) and
 * owning wrappers of runtimes, engines and execution contexts with TensorRT's enums mapped to Java.
 */
package io.ingot.trt.shim;
