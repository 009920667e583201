package io.ingot.client;

import java.time.Duration;

/**
 * How a KServe v2 client connects and what it accepts: Triton's {@code connection_timeout} and
 * {@code network_timeout} (HTTP; over gRPC the network timeout is each call's deadline unless the call sets its own),
 * and the largest response it accepts. A larger response fails with a message naming this limit instead of growing
 * the heap without bound. Immutable and thread-safe.
 *
 * @param connectionTimeout how long connecting may take
 * @param networkTimeout    how long a call may take in all (null: no limit, and no gRPC deadline)
 * @param maxResponseBytes  the largest response body (HTTP) or message (gRPC) accepted
 */
public record ClientOptions(Duration connectionTimeout, Duration networkTimeout, int maxResponseBytes)
{
    /**
     * Triton's HTTP client's defaults, 60 s to connect and 60 s per call (over gRPC the 60 s are each call's deadline,
     * where Triton's gRPC client sets none unless asked), and responses up to {@code Integer.MAX_VALUE} bytes (Triton's
     * gRPC client's message limit).
     */
    public static final ClientOptions DEFAULTS = new ClientOptions(Duration.ofSeconds(60), Duration.ofSeconds(60),
        Integer.MAX_VALUE);

    /** Checks the values. */
    public ClientOptions
    {
        if (connectionTimeout == null || connectionTimeout.isNegative() || connectionTimeout.isZero())
        {
            throw new IllegalArgumentException("connection timeout must be positive, was " + connectionTimeout);
        }
        if (maxResponseBytes < 1)
        {
            throw new IllegalArgumentException("max response bytes must be positive, was " + maxResponseBytes);
        }
    }

    /** @return these options with another response limit */
    public ClientOptions withMaxResponseBytes(final int bytes)
    {
        return new ClientOptions(connectionTimeout, networkTimeout, bytes);
    }

    /** @return these options with other timeouts */
    public ClientOptions withTimeouts(final Duration connection, final Duration network)
    {
        return new ClientOptions(connection, network, maxResponseBytes);
    }
}
