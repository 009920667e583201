/**
 * The KServe v2 client over HTTP/REST ({@link io.ingot.client.http.HttpInferenceServerClient}): JSON and binary
 * tensors, synchronous and asynchronous inference, on {@code java.net.http.HttpClient}.
 */
package io.ingot.client.http;
