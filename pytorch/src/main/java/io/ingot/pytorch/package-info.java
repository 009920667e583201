/**
 * Ingot's PyTorch backend ({@code platform: "pytorch_libtorch"}, {@code backend: "pytorch"}): runs TorchScript
 * {@code model.pt} files with libtorch through DJL's PyTorch JNI, as Triton's PyTorch backend does with libtorch in
 * C++ — Triton's input and output naming conventions, its parameters, one module per instance. Batch inputs reach
 * {@code forward} as tensors over the instance's staging memory ({@code torch::from_blob}, no copy); each output is
 * copied once into the memory {@link io.ingot.backend.Batch#allocateOutput} returns. libtorch for the CPU comes from
 * Maven Central and is loaded offline. Registered through {@link java.util.ServiceLoader} as
 * {@link io.ingot.pytorch.PyTorchBackendFactory}.
 */
package io.ingot.pytorch;
