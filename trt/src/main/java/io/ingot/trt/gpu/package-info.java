/**
 * How Ingot's GPU backends move data: {@link io.ingot.trt.gpu.DeviceMemoryOps} and its per-instance
 * {@link io.ingot.trt.gpu.DeviceStream}, over the CUDA runtime ({@link io.ingot.trt.gpu.CudaMemoryOps}) or over
 * plain host memory for tests without CUDA ({@link io.ingot.trt.gpu.HostMemoryOps}).
 */
package io.ingot.trt.gpu;
