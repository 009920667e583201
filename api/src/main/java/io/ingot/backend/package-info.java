/**
 * The backend SPI: how an engine (ONNX Runtime, TensorRT, a built-in) plugs into the core. A
 * {@link io.ingot.backend.BackendFactory}, found with {@link java.util.ServiceLoader} or given in
 * {@link io.ingot.api.CoreOptions.Builder#backend}, loads each model version into a {@link io.ingot.backend.Backend};
 * the backend creates one {@link io.ingot.backend.Engine} per model instance; the core hands each engine assembled
 * {@link io.ingot.backend.Batch}es on that instance's thread.
 *
 * <p>Threads: factories and backends may be called from several threads (loads of different models, instances
 * created in turn); an engine is used by one thread at a time, its instance's; a batch is valid only during the
 * {@code execute} call it is passed to. This package depends on nothing of the in-process API but the tensor types of
 * {@code io.ingot.tensor} and one handle: {@link io.ingot.backend.ModelContext#core()}, the core that loads the model,
 * through which a backend may call the core's other models (the Python backend's BLS requests).
 */
package io.ingot.backend;
