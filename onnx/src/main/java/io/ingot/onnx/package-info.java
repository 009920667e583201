/**
 * Ingot's ONNX Runtime backend ({@code backend: "onnxruntime"}, {@code platform: "onnxruntime_onnx"}): runs
 * {@code model.onnx} files on the CPU through ONNX Runtime's C API over FFM ({@link io.ingot.onnx.capi}), with IO
 * binding: inputs are read in place from the batch's memory and outputs written straight into the memory Ingot
 * allocated for them. Registered through {@link java.util.ServiceLoader} as {@link io.ingot.onnx.OnnxBackendFactory}.
 */
package io.ingot.onnx;
