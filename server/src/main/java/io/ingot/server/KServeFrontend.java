package io.ingot.server;

import io.ingot.server.access.RestrictedApis;
import io.ingot.api.InferenceCore;
import io.ingot.server.grpc.GrpcLimits;
import io.ingot.server.http.HttpLimits;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Plugs the KServe v2 HTTP and gRPC endpoints and the metrics endpoint into {@code ingot serve}. Reads Triton's
 * {@code --http-restricted-api} and {@code --grpc-restricted-protocol}, and these {@code --frontend-setting}s:
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>Key</th><th>Default</th><th>Meaning</th></tr>
 *   <tr><td>{@value #MAX_REQUEST_BYTES}</td><td>64 MiB (Triton's)</td><td>Triton's {@code --http-max-input-size}:
 *       the largest request JSON, JSON tensor, raw input and decompressed body (not binary tensor data)</td></tr>
 *   <tr><td>{@value #ALLOW_CLIENT_SHM}</td><td>true</td><td>whether clients may register shared memory</td></tr>
 *   <tr><td>{@value #HTTP_MAX_CONNECTIONS}</td><td>4096</td><td>HTTP connections open at once</td></tr>
 *   <tr><td>{@value #HTTP_IDLE_TIMEOUT}</td><td>60000</td><td>ms a connection may wait between requests</td></tr>
 *   <tr><td>{@value #HTTP_HEADER_TIMEOUT}</td><td>20000</td><td>ms for a request's line and headers</td></tr>
 *   <tr><td>{@value #HTTP_BODY_TIMEOUT}</td><td>20000</td><td>ms for a body, before the rate allowance</td></tr>
 *   <tr><td>{@value #HTTP_MIN_BODY_RATE}</td><td>1024</td><td>slowest average body rate, bytes/s</td></tr>
 *   <tr><td>{@value #HTTP_BODY_MEMORY}</td><td>1 GiB</td><td>memory all request bodies may hold (503 beyond)</td></tr>
 *   <tr><td>{@value #GRPC_MAX_MESSAGE_BYTES}</td><td>INT32_MAX (Triton's)</td><td>largest inbound message</td></tr>
 *   <tr><td>{@value #GRPC_MAX_CONNECTIONS}</td><td>4096</td><td>gRPC connections open at once</td></tr>
 *   <tr><td>{@value #GRPC_IDLE_TIMEOUT}</td><td>300000</td><td>ms a connection may stay without calls</td></tr>
 * </table>
 */
public final class KServeFrontend implements Frontend
{
    /** Setting: Triton's {@code --http-max-input-size}, in bytes ({@code HttpInputLimit}). */
    public static final String MAX_REQUEST_BYTES = "http-max-request-bytes";
    /** Setting: whether clients may register system shared-memory regions. */
    public static final String ALLOW_CLIENT_SHM = "allow-client-shm";
    /** Setting: HTTP connections open at once. */
    public static final String HTTP_MAX_CONNECTIONS = "http-max-connections";
    /** Setting: milliseconds an HTTP connection may wait between requests. */
    public static final String HTTP_IDLE_TIMEOUT = "http-idle-timeout-ms";
    /** Setting: milliseconds for a request's line and headers. */
    public static final String HTTP_HEADER_TIMEOUT = "http-header-timeout-ms";
    /** Setting: milliseconds for a request body, before the rate allowance. */
    public static final String HTTP_BODY_TIMEOUT = "http-body-timeout-ms";
    /** Setting: the slowest average rate a body may arrive at, bytes per second. */
    public static final String HTTP_MIN_BODY_RATE = "http-min-body-bytes-per-second";
    /** Setting: the memory all HTTP request bodies may hold at once. */
    public static final String HTTP_BODY_MEMORY = "http-body-memory-bytes";
    /** Setting: the largest inbound gRPC message. */
    public static final String GRPC_MAX_MESSAGE_BYTES = "grpc-max-message-bytes";
    /** Setting: gRPC connections open at once. */
    public static final String GRPC_MAX_CONNECTIONS = "grpc-max-connections";
    /** Setting: milliseconds a gRPC connection may stay without calls. */
    public static final String GRPC_IDLE_TIMEOUT = "grpc-max-connection-idle-ms";

    @Override
    public String name()
    {
        return "kserve";
    }

    /** Runs when at least one of its listeners is allowed ({@code --allow-http}, {@code --allow-grpc}, ...). */
    @Override
    public boolean isEnabled(final ServeOptions options)
    {
        return options.allowHttp() || options.allowGrpc() || options.allowMetrics();
    }

    @Override
    public String describe(final ServeOptions options)
    {
        final List<String> parts = new ArrayList<>();
        if (options.allowHttp())
        {
            parts.add("KServe v2 HTTP on " + options.host() + ":" + options.httpPort());
        }
        if (options.allowGrpc())
        {
            parts.add("gRPC on " + options.host() + ":" + options.grpcPort());
        }
        if (options.allowMetrics())
        {
            parts.add("metrics on http://" + options.host() + ":" + options.metricsPort() + "/metrics");
        }
        return String.join(", ", parts);
    }

    @Override
    public RunningFrontend start(final InferenceCore core, final ServeOptions options)
    {
        return ServerFrontends.start(core, toServerOptions(options));
    }

    /**
     * @param options the command line's options
     * @return the server's options, with the settings this frontend knows applied
     * @throws IllegalArgumentException for a malformed setting or restriction, naming it
     */
    static FrontendOptions toServerOptions(final ServeOptions options)
    {
        final Map<String, String> settings = options.settings();
        FrontendOptions server = FrontendOptions.defaults().withHost(options.host())
            // A listener not allowed gets a negative port, which FrontendOptions reads as "do not bind".
            .withPorts(options.allowHttp() ? options.httpPort() : -1, options.allowGrpc() ? options.grpcPort() : -1,
                options.allowMetrics() ? options.metricsPort() : -1)
            .withRestrictions(RestrictedApis.parseHttp(options.httpRestrictedApi()),
                RestrictedApis.parseGrpc(options.grpcRestrictedProtocol()));
        if (settings.containsKey(MAX_REQUEST_BYTES))
        {
            server = server.withMaxHttpRequestBytes(number(settings, MAX_REQUEST_BYTES));
        }
        final String shm = settings.get(ALLOW_CLIENT_SHM);
        if (shm != null)
        {
            if (!shm.equals("true") && !shm.equals("false"))
            {
                throw new IllegalArgumentException("frontend setting " + ALLOW_CLIENT_SHM
                    + " must be true or false, got '" + shm + "'");
            }
            server = server.withClientShm(Boolean.parseBoolean(shm));
        }
        HttpLimits http = server.httpLimits();
        http = http.withMaxConnections((int) number(settings, HTTP_MAX_CONNECTIONS, http.maxConnections()))
            .withTimeouts(number(settings, HTTP_IDLE_TIMEOUT, http.idleTimeoutMillis()),
                number(settings, HTTP_HEADER_TIMEOUT, http.headerTimeoutMillis()),
                number(settings, HTTP_BODY_TIMEOUT, http.bodyTimeoutMillis()))
            .withMinBodyBytesPerSecond(number(settings, HTTP_MIN_BODY_RATE, http.minBodyBytesPerSecond()))
            .withBodyMemoryBytes(number(settings, HTTP_BODY_MEMORY, http.bodyMemoryBytes()));
        GrpcLimits grpc = server.grpcLimits();
        grpc = grpc.withMaxMessageBytes((int) number(settings, GRPC_MAX_MESSAGE_BYTES, grpc.maxMessageBytes()))
            .withMaxConnections((int) number(settings, GRPC_MAX_CONNECTIONS, grpc.maxConnections()))
            .withMaxConnectionIdleMillis(number(settings, GRPC_IDLE_TIMEOUT, grpc.maxConnectionIdleMillis()));
        return server.withHttpLimits(http).withGrpcLimits(grpc);
    }

    private static long number(final Map<String, String> settings, final String key, final long otherwise)
    {
        return settings.containsKey(key) ? number(settings, key) : otherwise;
    }

    private static long number(final Map<String, String> settings, final String key)
    {
        final String text = settings.get(key);
        try
        {
            final long value = Long.parseLong(text.trim());
            if (value <= 0 || (key.contains("connections") || key.contains("message")) && value > Integer.MAX_VALUE)
            {
                throw new NumberFormatException(text);
            }
            return value;
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("frontend setting " + key + " must be a positive number, got '"
                + text + "'");
        }
    }
}
