package io.ingot.server.http;

import com.sun.management.OperatingSystemMXBean;
import io.ingot.server.net.ConnectionLimiter;

import java.lang.management.ManagementFactory;

/**
 * The bounds an HTTP listener keeps whatever its clients send.
 *
 * @param maxConnections        connections open at once; more are closed as soon as they are accepted
 * @param idleTimeoutMillis     how long a connection may wait between requests
 * @param headerTimeoutMillis   how long a request's line and headers may take, from its first byte
 * @param bodyTimeoutMillis     how long a body may take, from the end of the headers, before the allowance below
 * @param minBodyBytesPerSecond the slowest average rate a body may arrive at: each such many bytes received add 1 s
 * @param bodyMemoryBytes       the memory all request bodies of the listener may hold at once (received and
 *                              decompressed); beyond it, new bodies get 503. This, not Triton's
 *                              {@code --http-max-input-size}, is what bounds binary tensor data
 */
public record HttpLimits(int maxConnections, long idleTimeoutMillis, long headerTimeoutMillis,
    long bodyTimeoutMillis, long minBodyBytesPerSecond, long bodyMemoryBytes)
{
    /** Default connection limit: 4096, or a quarter of the descriptor limit where that is lower. */
    public static final int DEFAULT_MAX_CONNECTIONS = ConnectionLimiter.defaultMax();
    /** Default idle timeout between requests: 60 s. */
    public static final long DEFAULT_IDLE_TIMEOUT_MILLIS = 60_000;
    /** Default time for a request's headers: 20 s. */
    public static final long DEFAULT_HEADER_TIMEOUT_MILLIS = 20_000;
    /** Default time for a body before the rate allowance: 20 s. */
    public static final long DEFAULT_BODY_TIMEOUT_MILLIS = 20_000;
    /** Default slowest body rate: 1 KiB/s. */
    public static final long DEFAULT_MIN_BODY_BYTES_PER_SECOND = 1024;
    /**
     * Default memory for request bodies: half of the memory of the machine, or of its container where one limits it
     * (the JVM's {@code OperatingSystemMXBean.getTotalMemorySize()}, which reads the cgroup limit), at least 256 MiB;
     * 1 GiB where the JVM reports none. Half, so that one body as large as Triton accepts (its QA sends 1.9 GB
     * tensors with default flags) fits on a machine that can hold it next to its models, and the heap, the models and
     * the responses keep the other half.
     */
    public static final long DEFAULT_BODY_MEMORY_BYTES = defaultBodyMemoryBytes();

    private static long defaultBodyMemoryBytes()
    {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean system)
        {
            final long total = system.getTotalMemorySize();
            if (total > 0)
            {
                return Math.max(256L << 20, total / 2);
            }
        }
        return 1L << 30;
    }

    /** Validates. */
    public HttpLimits
    {
        if (maxConnections <= 0 || idleTimeoutMillis <= 0 || headerTimeoutMillis <= 0 || bodyTimeoutMillis <= 0
            || minBodyBytesPerSecond <= 0 || bodyMemoryBytes <= 0)
        {
            throw new IllegalArgumentException("every HTTP limit must be positive: " + this);
        }
    }

    /** @return the defaults */
    public static HttpLimits defaults()
    {
        return new HttpLimits(DEFAULT_MAX_CONNECTIONS, DEFAULT_IDLE_TIMEOUT_MILLIS, DEFAULT_HEADER_TIMEOUT_MILLIS,
            DEFAULT_BODY_TIMEOUT_MILLIS, DEFAULT_MIN_BODY_BYTES_PER_SECOND, DEFAULT_BODY_MEMORY_BYTES);
    }

    /**
     * @param idle   idle timeout
     * @param header header timeout
     * @param body   body timeout
     * @return a copy with those timeouts (milliseconds)
     */
    public HttpLimits withTimeouts(final long idle, final long header, final long body)
    {
        return new HttpLimits(maxConnections, idle, header, body, minBodyBytesPerSecond, bodyMemoryBytes);
    }

    /**
     * @param connections connection limit
     * @return a copy with that limit
     */
    public HttpLimits withMaxConnections(final int connections)
    {
        return new HttpLimits(connections, idleTimeoutMillis, headerTimeoutMillis, bodyTimeoutMillis,
            minBodyBytesPerSecond, bodyMemoryBytes);
    }

    /**
     * @param bytes memory for request bodies
     * @return a copy with that budget
     */
    public HttpLimits withBodyMemoryBytes(final long bytes)
    {
        return new HttpLimits(maxConnections, idleTimeoutMillis, headerTimeoutMillis, bodyTimeoutMillis,
            minBodyBytesPerSecond, bytes);
    }

    /**
     * @param bytesPerSecond slowest body rate
     * @return a copy with that rate
     */
    public HttpLimits withMinBodyBytesPerSecond(final long bytesPerSecond)
    {
        return new HttpLimits(maxConnections, idleTimeoutMillis, headerTimeoutMillis, bodyTimeoutMillis,
            bytesPerSecond, bodyMemoryBytes);
    }
}
