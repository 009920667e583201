/**
 * The backend SPI: how an engine (ONNX Runtime, TensorRT, a built-in) plugs into the core. A
 * {@link io.ingot.backend.BackendFactory}, found with {@link java.util.ServiceLoader} or given in
 * {@link io.ingot.api.CoreOptions.Builder#backend}, loads each model version into a {@link io.ingot.backend.Backend};
 * the backend creates one {@link io.ingot.backend.Engine} per model instance; the core hands each engine assembled
 * {@link io.ingot.backend.Batch}es on that instance's thread.
 *
 * <p>Threads: a factory must be thread-safe (loads and repository scans may run at once); a backend creates its
 * engines on the loading thread, and what its engines share is used by their instance threads at once; an engine is
 * used by one thread, its instance's; a batch is valid only during the {@code execute} call it is passed to. Memory:
 * the engine reads inputs it does not own and writes outputs into memory the runtime gives it, keeping neither
 * after {@code execute} returns. This package depends on nothing of the in-process API but the tensor types of
 * {@code io.ingot.tensor} and one handle: {@link io.ingot.backend.ModelContext#core()}, the core that loads the model,
 * through which a backend may call the core's other models (the Python backend's BLS requests).
 */
package io.ingot.backend;
