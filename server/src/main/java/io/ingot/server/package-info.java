/**
 * Ingot's network frontends: KServe v2 / Open Inference Protocol over HTTP/REST (Netty) and gRPC (grpc-java), with
 * Triton's extensions, and Prometheus metrics. {@link io.ingot.server.ServerFrontends} starts them over an
 * {@link io.ingot.api.InferenceCore}. Triton's clients ({@code tritonclient}, {@code perf_analyzer}) work unchanged.
 */
package io.ingot.server;
