package io.ingot.server;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code ingot serve} tells its {@link Frontend}s.
 *
 * @param host                   address to bind ({@code --host}, default {@code 127.0.0.1})
 * @param httpPort               KServe v2 HTTP port ({@code --http-port}, default 8000)
 * @param grpcPort               KServe v2 gRPC port ({@code --grpc-port}, default 8001)
 * @param metricsPort            Prometheus metrics port ({@code --metrics-port}, default 8002)
 * @param ipcName                name of the shared-memory transport ({@code --ipc NAME}), empty when not asked for
 * @param settings               further {@code KEY=VALUE} settings ({@code --frontend-setting}), for frontends with
 *                               options of their own
 * @param httpRestrictedApi      Triton's {@code --http-restricted-api} arguments, {@code <apis>:<key>=<value>} each
 * @param grpcRestrictedProtocol Triton's {@code --grpc-restricted-protocol} arguments, in the same form
 * @param allowHttp              Triton's {@code --allow-http}: whether the HTTP listener runs (default true)
 * @param allowGrpc              Triton's {@code --allow-grpc}: whether the gRPC listener runs (default true)
 * @param allowMetrics           Triton's {@code --allow-metrics}: whether the metrics listener runs (default true)
 */
public record ServeOptions(String host, int httpPort, int grpcPort, int metricsPort, Optional<String> ipcName,
    Map<String, String> settings, List<String> httpRestrictedApi, List<String> grpcRestrictedProtocol,
    boolean allowHttp, boolean allowGrpc, boolean allowMetrics)
{
    /** Freezes the settings. */
    public ServeOptions
    {
        settings = Map.copyOf(settings);
        httpRestrictedApi = List.copyOf(httpRestrictedApi);
        grpcRestrictedProtocol = List.copyOf(grpcRestrictedProtocol);
    }

    /**
     * The options with every listener allowed.
     *
     * @param host                   address to bind
     * @param httpPort               HTTP port
     * @param grpcPort               gRPC port
     * @param metricsPort            metrics port
     * @param ipcName                shared-memory transport name
     * @param settings               further settings
     * @param httpRestrictedApi      {@code --http-restricted-api} arguments
     * @param grpcRestrictedProtocol {@code --grpc-restricted-protocol} arguments
     */
    public ServeOptions(final String host, final int httpPort, final int grpcPort, final int metricsPort,
        final Optional<String> ipcName, final Map<String, String> settings, final List<String> httpRestrictedApi,
        final List<String> grpcRestrictedProtocol)
    {
        this(host, httpPort, grpcPort, metricsPort, ipcName, settings, httpRestrictedApi, grpcRestrictedProtocol,
            true, true, true);
    }

    /**
     * The options without restrictions.
     *
     * @param host        address to bind
     * @param httpPort    HTTP port
     * @param grpcPort    gRPC port
     * @param metricsPort metrics port
     * @param ipcName     shared-memory transport name
     * @param settings    further settings
     */
    public ServeOptions(final String host, final int httpPort, final int grpcPort, final int metricsPort,
        final Optional<String> ipcName, final Map<String, String> settings)
    {
        this(host, httpPort, grpcPort, metricsPort, ipcName, settings, List.of(), List.of());
    }
}
