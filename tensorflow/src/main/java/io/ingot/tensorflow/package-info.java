/**
 * Ingot's TensorFlow backend: {@code platform: "tensorflow_savedmodel"} (or {@code backend: "tensorflow"}), a
 * {@code model.savedmodel/} folder per version, served through TensorFlow's C API
 * ({@link io.ingot.tensorflow.capi}), never its Java API.
 * {@link io.ingot.tensorflow.TensorFlowBackendFactory} is found with {@link java.util.ServiceLoader}; it completes
 * configurations from the SavedModel's {@code serving_default} signature as Triton's TensorFlow backend did, checks
 * them against it, and loads one session per instance; {@link io.ingot.tensorflow.SavedModelEngine} runs the batches,
 * lending the batch's memory to TensorFlow and copying each output once into the response's memory.
 *
 * <p>Threads: the factory and the backend may be called from several threads; an engine is used by its instance's
 * thread only.
 */
package io.ingot.tensorflow;
