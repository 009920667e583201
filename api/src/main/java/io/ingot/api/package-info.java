/**
 * Ingot's in-process API: what an application that links Ingot in calls, and what every frontend (HTTP, gRPC,
 * shared memory) is written against.
 *
 * <ul>
 *   <li>{@link io.ingot.api.InferenceCore} opens a core on {@link io.ingot.api.CoreOptions} and serves
 *       {@link io.ingot.api.InferenceRequest}s; each accepted request gets exactly one
 *       {@link io.ingot.api.InferenceResponse}, through a {@link io.ingot.api.ResponseListener} or a future.</li>
 *   <li>Errors carry Triton's status categories ({@link io.ingot.api.ErrorCode}) in an
 *       {@link io.ingot.api.InferenceException}.</li>
 *   <li>Metadata, statistics and the repository index come back as records built for each call, which the core
 *       never changes afterwards; configurations as immutable protobuf messages.</li>
 * </ul>
 *
 * <p>Threads: a core is safe to call from any number of threads at once; it delivers responses on its own threads.
 * Requests and responses are single-owner objects, not thread-safe: a request belongs to its caller except while in
 * flight, a response to whoever receives it until it is closed, after which the core reuses it. Output memory comes
 * from a {@link io.ingot.api.ResponseAllocator}, which must be thread-safe.
 * {@link io.ingot.api.ResponseAssembly} and {@link io.ingot.api.RequestLifecycle} are the hooks by which the core
 * fills those objects; applications never call them. The core itself is found with
 * {@link java.util.ServiceLoader} ({@link io.ingot.api.InferenceCoreProvider}), so this package depends on no
 * implementation.
 */
package io.ingot.api;
