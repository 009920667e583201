/**
 * Ingot's ONNX Runtime backend ({@code backend: "onnxruntime"}, {@code platform: "onnxruntime_onnx"}): runs
 * {@code model.onnx} files on the CPU through ONNX Runtime's Java API, with inputs passed zero-copy over the batch's
 * memory and outputs written in place. Registered through {@link java.util.ServiceLoader} as
 * {@link io.ingot.onnx.OnnxBackendFactory}.
 */
package io.ingot.onnx;
