package io.ingot.server;

import io.ingot.server.access.RestrictedApis;
import io.ingot.server.grpc.GrpcLimits;
import io.ingot.server.http.HttpInputLimit;
import io.ingot.server.http.HttpLimits;

import java.util.Objects;

/**
 * How the network frontends listen. A negative port disables that listener; port 0 binds an ephemeral port.
 *
 * @param host                 address every listener binds ({@code 127.0.0.1} unless told otherwise)
 * @param httpPort             KServe v2 HTTP/REST port (Triton's default 8000)
 * @param grpcPort             KServe v2 gRPC port (Triton's default 8001)
 * @param metricsPort          Prometheus metrics port (Triton's default 8002)
 * @param maxHttpRequestBytes  Triton's {@code --http-max-input-size} (default 64 MiB): the largest request JSON,
 *                             JSON tensor, raw binary input and decompressed body over HTTP ({@link HttpInputLimit});
 *                             binary tensor data is bounded only by {@link HttpLimits#bodyMemoryBytes()}
 * @param allowClientShm       whether clients may register system shared-memory regions
 * @param httpThreads          event-loop threads of the HTTP and metrics listeners
 * @param httpLimits           connections, timeouts and body memory of the HTTP listener
 * @param grpcLimits           message size, connections, keepalive and idle limits of the gRPC listener
 * @param httpRestricted       HTTP endpoints restricted to a header ({@code --http-restricted-api})
 * @param grpcRestricted       gRPC methods restricted to a header ({@code --grpc-restricted-protocol})
 */
public record FrontendOptions(String host, int httpPort, int grpcPort, int metricsPort, long maxHttpRequestBytes,
    boolean allowClientShm, int httpThreads, HttpLimits httpLimits, GrpcLimits grpcLimits,
    RestrictedApis httpRestricted, RestrictedApis grpcRestricted)
{
    /** Default HTTP port. */
    public static final int DEFAULT_HTTP_PORT = 8000;
    /** Default gRPC port. */
    public static final int DEFAULT_GRPC_PORT = 8001;
    /** Default metrics port. */
    public static final int DEFAULT_METRICS_PORT = 8002;
    /** Default HTTP input limit: 64 MiB, Triton's {@code --http-max-input-size} ({@link HttpInputLimit}). */
    public static final long DEFAULT_MAX_HTTP_REQUEST_BYTES = HttpInputLimit.DEFAULT_BYTES;
    /** Default bind address: loopback only. */
    public static final String DEFAULT_HOST = "127.0.0.1";

    /** Validates. */
    public FrontendOptions
    {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(httpLimits, "httpLimits");
        Objects.requireNonNull(grpcLimits, "grpcLimits");
        Objects.requireNonNull(httpRestricted, "httpRestricted");
        Objects.requireNonNull(grpcRestricted, "grpcRestricted");
        if (maxHttpRequestBytes <= 0 || maxHttpRequestBytes > Integer.MAX_VALUE - 8)
        {
            throw new IllegalArgumentException("the HTTP request limit must be between 1 byte and 2 GiB, was "
                + maxHttpRequestBytes);
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

    /** @return Triton's defaults, bound to loopback, client shared memory allowed, nothing restricted. */
    public static FrontendOptions defaults()
    {
        return new FrontendOptions(DEFAULT_HOST, DEFAULT_HTTP_PORT, DEFAULT_GRPC_PORT, DEFAULT_METRICS_PORT,
            DEFAULT_MAX_HTTP_REQUEST_BYTES, true, Math.max(2, Runtime.getRuntime().availableProcessors()),
            HttpLimits.defaults(), GrpcLimits.defaults(), RestrictedApis.none(), RestrictedApis.none());
    }

    /**
     * @param newHost address to bind
     * @return a copy with that host
     */
    public FrontendOptions withHost(final String newHost)
    {
        return new FrontendOptions(newHost, httpPort, grpcPort, metricsPort, maxHttpRequestBytes, allowClientShm,
            httpThreads, httpLimits, grpcLimits, httpRestricted, grpcRestricted);
    }

    /**
     * @param http    HTTP port
     * @param grpc    gRPC port
     * @param metrics metrics port
     * @return a copy with those ports
     */
    public FrontendOptions withPorts(final int http, final int grpc, final int metrics)
    {
        return new FrontendOptions(host, http, grpc, metrics, maxHttpRequestBytes, allowClientShm, httpThreads,
            httpLimits, grpcLimits, httpRestricted, grpcRestricted);
    }

    /**
     * @param bytes Triton's {@code --http-max-input-size} ({@link HttpInputLimit})
     * @return a copy with that limit
     */
    public FrontendOptions withMaxHttpRequestBytes(final long bytes)
    {
        return new FrontendOptions(host, httpPort, grpcPort, metricsPort, bytes, allowClientShm, httpThreads,
            httpLimits, grpcLimits, httpRestricted, grpcRestricted);
    }

    /**
     * @param allowed whether clients may register system shared memory
     * @return a copy with that setting
     */
    public FrontendOptions withClientShm(final boolean allowed)
    {
        return new FrontendOptions(host, httpPort, grpcPort, metricsPort, maxHttpRequestBytes, allowed, httpThreads,
            httpLimits, grpcLimits, httpRestricted, grpcRestricted);
    }

    /**
     * @param limits the HTTP listener's bounds
     * @return a copy with them
     */
    public FrontendOptions withHttpLimits(final HttpLimits limits)
    {
        return new FrontendOptions(host, httpPort, grpcPort, metricsPort, maxHttpRequestBytes, allowClientShm,
            httpThreads, limits, grpcLimits, httpRestricted, grpcRestricted);
    }

    /**
     * @param limits the gRPC listener's bounds
     * @return a copy with them
     */
    public FrontendOptions withGrpcLimits(final GrpcLimits limits)
    {
        return new FrontendOptions(host, httpPort, grpcPort, metricsPort, maxHttpRequestBytes, allowClientShm,
            httpThreads, httpLimits, limits, httpRestricted, grpcRestricted);
    }

    /**
     * @param http HTTP endpoints restricted to a header
     * @param grpc gRPC methods restricted to a header
     * @return a copy with those restrictions
     */
    public FrontendOptions withRestrictions(final RestrictedApis http, final RestrictedApis grpc)
    {
        return new FrontendOptions(host, httpPort, grpcPort, metricsPort, maxHttpRequestBytes, allowClientShm,
            httpThreads, httpLimits, grpcLimits, http, grpc);
    }
}
