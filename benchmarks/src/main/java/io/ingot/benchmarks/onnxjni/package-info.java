/**
 * The ONNX Runtime backend comparison: {@link io.ingot.benchmarks.onnxjni.BackendComparison} measures the FFM backend
 * of {@code ingot-onnx} against this package's copy of the JNI backend it replaced (commit 2de26d1, ONNX Runtime's
 * Java API, registered as backend {@code onnxruntime_jni}) and against ONNX Runtime called directly. A baseline only:
 * nothing on the serving path depends on it. Thread-safety as the original's: one engine per instance thread.
 */
package io.ingot.benchmarks.onnxjni;
