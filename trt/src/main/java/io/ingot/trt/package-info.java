/**
 * Ingot's TensorRT backend ({@link io.ingot.trt.TensorRtBackendFactory}, platform {@code tensorrt_plan}): serves
 * serialized TensorRT engines through the FFM binding of Ingot's {@code extern "C"} shim ({@link io.ingot.trt.shim}),
 * one execution context and CUDA stream per model instance ({@link io.ingot.trt.gpu}).
 */
package io.ingot.trt;
