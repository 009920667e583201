/**
 * Ingot's Java client for the KServe v2 protocol (Ingot or Triton, over the network), in the shape of Triton's
 * clients: {@link io.ingot.client.InferInput}, {@link io.ingot.client.InferRequestedOutput},
 * {@link io.ingot.client.InferOptions} and {@link io.ingot.client.InferResult}, shared by the HTTP client
 * ({@code io.ingot.client.http}) and the gRPC client ({@code io.ingot.client.grpc}); errors are
 * {@link io.ingot.client.InferenceServerException}. System shared memory: {@code io.ingot.client.shm}. The module
 * depends on no Ingot server code: only on the protocol module's generated messages.
 */
package io.ingot.client;
