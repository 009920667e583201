package io.ingot.server.grpc;

import io.ingot.server.net.ConnectionLimiter;

/**
 * The bounds a gRPC listener keeps. Keepalive defaults are Triton's (its {@code --grpc-keepalive-*} and
 * {@code --grpc-http2-*} options, command_line_parser.cc); the inbound message limit is Triton's
 * {@code MAX_GRPC_MESSAGE_SIZE} (INT32_MAX, common.h). The idle limit and the connection limit are Ingot's: Triton
 * has neither, and without them a client can hold connections and descriptors open for ever.
 *
 * @param maxMessageBytes           largest inbound message
 * @param maxConnections            connections open at once; more are closed as soon as they are accepted
 * @param keepAliveTimeMillis       the server pings a connection silent this long ({@code --grpc-keepalive-time})
 * @param keepAliveTimeoutMillis    and closes it when the ping is not answered within this
 *                                  ({@code --grpc-keepalive-timeout})
 * @param permitKeepAliveMillis     the most frequent client pings tolerated ({@code
 *                                  --grpc-http2-min-recv-ping-interval-without-data}); a client pinging more often
 *                                  is disconnected after two strikes, as Triton's default of
 *                                  {@code --grpc-http2-max-ping-strikes}
 * @param permitKeepAliveWithoutCalls whether clients may ping without calls in flight
 *                                  ({@code --grpc-keepalive-permit-without-calls})
 * @param maxConnectionIdleMillis   a connection without calls for this long is closed (GOAWAY)
 */
public record GrpcLimits(int maxMessageBytes, int maxConnections, long keepAliveTimeMillis,
    long keepAliveTimeoutMillis, long permitKeepAliveMillis, boolean permitKeepAliveWithoutCalls,
    long maxConnectionIdleMillis)
{
    /** Triton's largest inbound message: INT32_MAX. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = Integer.MAX_VALUE;
    /** Default connection limit: 4096, or a quarter of the descriptor limit where that is lower. */
    public static final int DEFAULT_MAX_CONNECTIONS = ConnectionLimiter.defaultMax();
    /** Triton's keepalive time: 2 h. */
    public static final long DEFAULT_KEEPALIVE_TIME_MILLIS = 7_200_000;
    /** Triton's keepalive timeout: 20 s. */
    public static final long DEFAULT_KEEPALIVE_TIMEOUT_MILLIS = 20_000;
    /** Triton's minimum interval between client pings without data: 5 min. */
    public static final long DEFAULT_PERMIT_KEEPALIVE_MILLIS = 300_000;
    /** Default idle limit: 5 min without calls. */
    public static final long DEFAULT_MAX_CONNECTION_IDLE_MILLIS = 300_000;

    /** Validates. */
    public GrpcLimits
    {
        if (maxMessageBytes <= 0 || maxConnections <= 0 || keepAliveTimeMillis <= 0 || keepAliveTimeoutMillis <= 0
            || permitKeepAliveMillis < 0 || maxConnectionIdleMillis <= 0)
        {
            throw new IllegalArgumentException("every gRPC limit must be positive: " + this);
        }
    }

    /** @return Triton's defaults, and Ingot's for the idle and connection limits */
    public static GrpcLimits defaults()
    {
        return new GrpcLimits(DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_CONNECTIONS, DEFAULT_KEEPALIVE_TIME_MILLIS,
            DEFAULT_KEEPALIVE_TIMEOUT_MILLIS, DEFAULT_PERMIT_KEEPALIVE_MILLIS, false,
            DEFAULT_MAX_CONNECTION_IDLE_MILLIS);
    }

    /**
     * @param bytes largest inbound message
     * @return a copy with that limit
     */
    public GrpcLimits withMaxMessageBytes(final int bytes)
    {
        return new GrpcLimits(bytes, maxConnections, keepAliveTimeMillis, keepAliveTimeoutMillis,
            permitKeepAliveMillis, permitKeepAliveWithoutCalls, maxConnectionIdleMillis);
    }

    /**
     * @param connections connection limit
     * @return a copy with that limit
     */
    public GrpcLimits withMaxConnections(final int connections)
    {
        return new GrpcLimits(maxMessageBytes, connections, keepAliveTimeMillis, keepAliveTimeoutMillis,
            permitKeepAliveMillis, permitKeepAliveWithoutCalls, maxConnectionIdleMillis);
    }

    /**
     * @param millis idle limit
     * @return a copy with that limit
     */
    public GrpcLimits withMaxConnectionIdleMillis(final long millis)
    {
        return new GrpcLimits(maxMessageBytes, maxConnections, keepAliveTimeMillis, keepAliveTimeoutMillis,
            permitKeepAliveMillis, permitKeepAliveWithoutCalls, millis);
    }
}
