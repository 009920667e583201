/**
 * TensorFlow's C API ({@code tensorflow/c/c_api.h}, {@code tf_tensor.h}, {@code tf_status.h}, {@code tf_buffer.h},
 * {@code tf_datatype.h} of TensorFlow 2.18) bound with FFM in jextract's shape: {@link
 * io.ingot.tensorflow.capi.TensorFlowC} holds the layouts, the header constants and one downcall handle per
 * function, resolved once; {@link io.ingot.tensorflow.capi.LibraryLocation} finds the native library (extracted from
 * the {@code tensorflow-core-native} jar); the few wrappers here ({@link io.ingot.tensorflow.capi.TfSession},
 * {@link io.ingot.tensorflow.capi.TfStatus}, {@link io.ingot.tensorflow.capi.TensorReleases},
 * {@link io.ingot.tensorflow.capi.TfStrings}) turn C conventions into exceptions and owned objects.
 *
 * <p>This is the one package of the module that binds native symbols (ArchitectureRulesTest allows it, as it allows
 * the TensorRT shim's). Thread-safety: {@code TensorFlowC}'s methods are thread-safe; the wrappers are used by one
 * thread at a time, their owner's.
 */
package io.ingot.tensorflow.capi;
