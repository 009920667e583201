/**
 * GPU reference backends for verifying the GPU data path where CUDA exists and TensorRT does not:
 * {@link io.ingot.trt.reference.CudaIdentityBackendFactory} ({@code cuda_identity}) and
 * {@link io.ingot.trt.reference.CublasMlpBackendFactory} ({@code cublas_mlp}).
 */
package io.ingot.trt.reference;
