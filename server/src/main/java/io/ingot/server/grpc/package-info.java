/** KServe v2 over gRPC: Triton's {@code inference.GRPCInferenceService} and {@code grpc.health.v1.Health}. */
package io.ingot.server.grpc;
