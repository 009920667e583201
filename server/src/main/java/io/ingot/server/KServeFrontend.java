package io.ingot.server;

import io.ingot.api.InferenceCore;


import java.util.Map;

/**
 * Plugs the KServe v2 HTTP and gRPC endpoints and the metrics endpoint into {@code ingot serve}. Settings read from
 * {@code --frontend-setting}: {@code http-max-request-bytes} (default 64 MiB, Triton's) and
 * {@code allow-client-shm} ({@code true}/{@code false}, default {@code true}).
 */
public final class KServeFrontend implements Frontend
{
    /** Setting: the largest HTTP request body accepted, in bytes. */
    public static final String MAX_REQUEST_BYTES = "http-max-request-bytes";
    /** Setting: whether clients may register system shared-memory regions. */
    public static final String ALLOW_CLIENT_SHM = "allow-client-shm";

    @Override
    public String name()
    {
        return "kserve";
    }

    @Override
    public String describe(final io.ingot.server.ServeOptions options)
    {
        return "KServe v2 HTTP on " + options.host() + ":" + options.httpPort() + ", gRPC on " + options.host() + ":"
            + options.grpcPort() + ", metrics on http://" + options.host() + ":" + options.metricsPort()
            + "/metrics";
    }

    @Override
    public AutoCloseable start(final InferenceCore core, final io.ingot.server.ServeOptions options)
    {
        return ServerFrontends.start(core, toServerOptions(options));
    }

    /**
     * @param options the command line's options
     * @return the server's options, with the settings this frontend knows applied
     * @throws IllegalArgumentException for a malformed setting, naming it
     */
    static FrontendOptions toServerOptions(final io.ingot.server.ServeOptions options)
    {
        final Map<String, String> settings = options.settings();
        FrontendOptions server = FrontendOptions.defaults().withHost(options.host())
            .withPorts(options.httpPort(), options.grpcPort(), options.metricsPort());
        final String maxBytes = settings.get(MAX_REQUEST_BYTES);
        if (maxBytes != null)
        {
            try
            {
                server = server.withMaxHttpRequestBytes(Long.parseLong(maxBytes.trim()));
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("frontend setting " + MAX_REQUEST_BYTES
                    + " must be a number of bytes, got '" + maxBytes + "'");
            }
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
        return server;
    }
}
