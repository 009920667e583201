/**
 * Ingot's frontends: KServe v2 / Open Inference Protocol over HTTP/REST (Netty) and gRPC (grpc-java), with Triton's
 * extensions, Prometheus metrics, and the shared-memory IPC server ({@link io.ingot.server.ipc}).
 * {@link io.ingot.server.ServerFrontends} starts the network ones over an {@link io.ingot.api.InferenceCore}; Triton's
 * clients ({@code tritonclient}, {@code perf_analyzer}) work unchanged. {@link io.ingot.server.Frontend} and
 * {@link io.ingot.server.ServeOptions} are how {@code ingot serve} starts them ({@link io.ingot.server.KServeFrontend},
 * {@link io.ingot.server.IpcFrontend}), found with {@link java.util.ServiceLoader}.
 */
package io.ingot.server;
