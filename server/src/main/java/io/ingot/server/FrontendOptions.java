package io.ingot.server;

import java.util.Objects;

/**
 * How the network frontends listen. A negative port disables that listener; port 0 binds an ephemeral port.
 *
 * @param host                 address every listener binds ({@code 127.0.0.1} unless told otherwise)
 * @param httpPort             KServe v2 HTTP/REST port (Triton's default 8000)
 * @param grpcPort             KServe v2 gRPC port (Triton's default 8001)
 * @param metricsPort          Prometheus metrics port (Triton's default 8002)
 * @param maxHttpRequestBytes  largest HTTP request body, compressed or decompressed (Triton's default 64 MiB)
 * @param maxGrpcMessageBytes  largest inbound gRPC message (Triton's clients use INT32_MAX)
 * @param allowClientShm       whether clients may register system shared-memory regions
 * @param httpThreads          event-loop threads of the HTTP and metrics listeners
 */
public record FrontendOptions(String host, int httpPort, int grpcPort, int metricsPort, long maxHttpRequestBytes,
    int maxGrpcMessageBytes, boolean allowClientShm, int httpThreads)
{
    /** Default HTTP port. */
    public static final int DEFAULT_HTTP_PORT = 8000;
    /** Default gRPC port. */
    public static final int DEFAULT_GRPC_PORT = 8001;
    /** Default metrics port. */
    public static final int DEFAULT_METRICS_PORT = 8002;
    /** Default HTTP body limit: 64 MiB, Triton's {@code --http-max-input-size}. */
    public static final long DEFAULT_MAX_HTTP_REQUEST_BYTES = 64L << 20;
    /** Default bind address: loopback only. */
    public static final String DEFAULT_HOST = "127.0.0.1";

    /** Validates. */
    public FrontendOptions
    {
        Objects.requireNonNull(host, "host");
        if (maxHttpRequestBytes <= 0 || maxHttpRequestBytes > Integer.MAX_VALUE - 8)
        {
            throw new IllegalArgumentException("the HTTP request limit must be between 1 byte and 2 GiB, was "
                + maxHttpRequestBytes);
        }
        if (maxGrpcMessageBytes <= 0)
        {
            throw new IllegalArgumentException("the gRPC message limit must be positive, was " + maxGrpcMessageBytes);
        }
        if (httpThreads <= 0)
        {
            throw new IllegalArgumentException("the HTTP thread count must be positive, was " + httpThreads);
        }
        for (final int port : new int[] {httpPort, grpcPort, metricsPort})
        {
            if (port > 65535)
            {
                throw new IllegalArgumentException("port " + port + " is above 65535");
            }
        }
    }

    /** @return Triton's defaults, bound to loopback, client shared memory allowed. */
    public static FrontendOptions defaults()
    {
        return new FrontendOptions(DEFAULT_HOST, DEFAULT_HTTP_PORT, DEFAULT_GRPC_PORT, DEFAULT_METRICS_PORT,
            DEFAULT_MAX_HTTP_REQUEST_BYTES, Integer.MAX_VALUE, true,
            Math.max(2, Runtime.getRuntime().availableProcessors()));
    }

    /**
     * @param newHost address to bind
     * @return a copy with that host
     */
    public FrontendOptions withHost(final String newHost)
    {
        return new FrontendOptions(newHost, httpPort, grpcPort, metricsPort, maxHttpRequestBytes,
            maxGrpcMessageBytes, allowClientShm, httpThreads);
    }

    /**
     * @param http    HTTP port
     * @param grpc    gRPC port
     * @param metrics metrics port
     * @return a copy with those ports
     */
    public FrontendOptions withPorts(final int http, final int grpc, final int metrics)
    {
        return new FrontendOptions(host, http, grpc, metrics, maxHttpRequestBytes, maxGrpcMessageBytes,
            allowClientShm, httpThreads);
    }

    /**
     * @param bytes largest HTTP request body
     * @return a copy with that limit
     */
    public FrontendOptions withMaxHttpRequestBytes(final long bytes)
    {
        return new FrontendOptions(host, httpPort, grpcPort, metricsPort, bytes, maxGrpcMessageBytes,
            allowClientShm, httpThreads);
    }

    /**
     * @param allowed whether clients may register system shared memory
     * @return a copy with that setting
     */
    public FrontendOptions withClientShm(final boolean allowed)
    {
        return new FrontendOptions(host, httpPort, grpcPort, metricsPort, maxHttpRequestBytes,
            maxGrpcMessageBytes, allowed, httpThreads);
    }
}
