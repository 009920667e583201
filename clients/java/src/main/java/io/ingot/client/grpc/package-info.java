/**
 * The KServe v2 client over gRPC ({@link io.ingot.client.grpc.GrpcInferenceServerClient}), on grpc-java and the
 * protocol module's stubs: synchronous and asynchronous inference, raw tensor contents.
 */
package io.ingot.client.grpc;
