/**
 * ONNX Runtime's C API ({@code onnxruntime_c_api.h} of ONNX Runtime 1.23.2) bound with FFM in jextract's shape:
 * {@link io.ingot.onnx.capi.OrtApi} loads {@code libonnxruntime.so} (from the
 * {@code com.microsoft.onnxruntime:onnxruntime} jar, {@link io.ingot.onnx.capi.OrtLibraryFile}), takes the
 * {@code OrtApi} function table from {@code OrtGetApiBase}, and holds the header's constants;
 * {@link io.ingot.onnx.capi.OrtSessionApi}, {@link io.ingot.onnx.capi.OrtValueApi} and
 * {@link io.ingot.onnx.capi.OrtIoBindingApi} hold one downcall handle per bound function, resolved once from its
 * table slot. The few wrappers ({@link io.ingot.onnx.capi.OrtEnv}, {@link io.ingot.onnx.capi.OrtSessionOptions},
 * {@link io.ingot.onnx.capi.OrtSession}, {@link io.ingot.onnx.capi.OrtTypes}) turn C conventions into exceptions and
 * owned objects.
 *
 * <p>This is the one package of the module that binds native symbols (ArchitectureRulesTest allows it). Thread-safety:
 * the functions are thread-safe; the wrappers say what they allow.
 */
package io.ingot.onnx.capi;
