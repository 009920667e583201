/**
 * SavedModels as files: reading {@code saved_model.pb} to find the MetaGraphDef of a tag and the signature Triton
 * serves ({@link io.ingot.tensorflow.savedmodel.SavedModelReader}, {@link
 * io.ingot.tensorflow.savedmodel.ServingSignature}), and writing SavedModels from graphs the project builds itself
 * ({@link io.ingot.tensorflow.savedmodel.GraphBuilder}, {@link io.ingot.tensorflow.savedmodel.SavedModelWriter}):
 * the test models and the example repository's {@code my_model} and {@code priority_model}
 * ({@link io.ingot.tensorflow.savedmodel.ExampleSavedModels}). Pure Java over the protobuf subset in
 * {@code io.ingot.tensorflow.proto}; nothing here needs TensorFlow's native library. Stateless classes are
 * thread-safe; builders are used by one thread.
 */
package io.ingot.tensorflow.savedmodel;
