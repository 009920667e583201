package io.ingot.cli;

import io.ingot.server.KServeFrontend;
import io.ingot.server.ServeOptions;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The listeners' flags of {@code ingot serve}: Triton's ({@code --allow-http}, {@code --http-port},
 * {@code --http-address}, {@code --metrics-config}, ...) and Ingot's ({@code --host}, {@code --ipc},
 * {@code --frontend-setting}), turned into the {@link ServeOptions} the frontends read. Not thread-safe: picocli
 * fills it on one thread.
 */
final class FrontendFlags
{
    /** Ingot's default address: loopback only (Triton binds 0.0.0.0; pass --host 0.0.0.0 for that). */
    static final String DEFAULT_HOST = "127.0.0.1";

    @Option(names = "--host", paramLabel = "ADDRESS",
        description = "Address every network listener binds (default " + DEFAULT_HOST + ", loopback only).")
    String host;

    @Option(names = "--http-address", paramLabel = "<string>",
        description = "Triton's: address of the HTTP listener. Ingot binds every listener to one address, so the "
            + "addresses given must agree.")
    String httpAddress;

    @Option(names = "--grpc-address", paramLabel = "<string>", description = "Triton's: address of the gRPC listener.")
    String grpcAddress;

    @Option(names = "--metrics-address", paramLabel = "<string>",
        description = "Triton's: address of the metrics listener.")
    String metricsAddress;

    @Option(names = "--allow-http", paramLabel = "<boolean>", arity = "0..1", fallbackValue = "true",
        defaultValue = "true", converter = TritonValues.BooleanText.class,
        description = "Triton's: serve KServe v2 over HTTP (default true).")
    String allowHttp;

    @Option(names = "--allow-grpc", paramLabel = "<boolean>", arity = "0..1", fallbackValue = "true",
        defaultValue = "true", converter = TritonValues.BooleanText.class,
        description = "Triton's: serve KServe v2 over gRPC (default true).")
    String allowGrpc;

    @Option(names = "--allow-metrics", paramLabel = "<boolean>", arity = "0..1", fallbackValue = "true",
        defaultValue = "true", converter = TritonValues.BooleanText.class,
        description = "Triton's: serve Prometheus metrics (default true).")
    String allowMetrics;

    @Option(names = "--http-port", paramLabel = "<integer>", defaultValue = "8000",
        converter = TritonValues.IntConverter.class,
        description = "KServe v2 HTTP port (default ${DEFAULT-VALUE}; 0: any free port; negative: no listener).")
    int httpPort;

    @Option(names = "--grpc-port", paramLabel = "<integer>", defaultValue = "8001",
        converter = TritonValues.IntConverter.class,
        description = "KServe v2 gRPC port (default ${DEFAULT-VALUE}).")
    int grpcPort;

    @Option(names = "--metrics-port", paramLabel = "<integer>", defaultValue = "8002",
        converter = TritonValues.IntConverter.class,
        description = "Prometheus metrics port (default ${DEFAULT-VALUE}).")
    int metricsPort;

    @Option(names = "--http-max-input-size", paramLabel = "<integer>",
        description = "Triton's: largest request JSON, JSON tensor, raw input and decompressed body over HTTP,"
            + " in bytes (default 64 MiB); binary tensor data is not bounded by it.")
    Long httpMaxInputSize;

    @Option(names = "--allow-client-shm", paramLabel = "<boolean>", arity = "0..1", fallbackValue = "true",
        converter = TritonValues.BooleanText.class,
        description = "Triton's: whether clients may register system shared memory. Ingot's default is true "
            + "(Triton's newest is false).")
    String allowClientShm;

    @Option(names = "--metrics-config", paramLabel = "<setting>=<value>",
        description = "Triton's: counter_latencies=true, histogram_latencies=false and summary_latencies=false are "
            + "what Ingot's metrics are; other values are refused.")
    List<String> metricsConfig = new ArrayList<>();

    @Option(names = "--ipc", paramLabel = "NAME",
        description = "Also serve clients of other processes through shared memory under this name.")
    String ipcName;

    @Option(names = "--frontend-setting", paramLabel = "KEY=VALUE",
        description = "A setting passed to the frontends (each reads the keys it knows).")
    Map<String, String> frontendSettings = new LinkedHashMap<>();

    @Option(names = "--http-restricted-api", paramLabel = "<apis>:<key>=<value>",
        description = "Triton's option: HTTP endpoints of the comma-separated APIs (health, metadata, inference, "
            + "shared-memory, model-config, model-repository, statistics, trace, logging) answer only requests with "
            + "header <key>: <value> (others get 403). Repeatable, one API per option at most.")
    List<String> httpRestrictedApi = new ArrayList<>();

    @Option(names = "--grpc-restricted-protocol", paramLabel = "<protocols>:<key>=<value>",
        description = "Triton's option: gRPC methods of the comma-separated protocols (as --http-restricted-api) "
            + "answer only calls with metadata triton-grpc-protocol-<key>: <value> (others get UNAVAILABLE).")
    List<String> grpcRestrictedProtocol = new ArrayList<>();

    /**
     * @return what the frontends are told
     * @throws CliException for a flag Ingot cannot honour, or listeners that would collide, naming the flags
     */
    ServeOptions serveOptions()
    {
        checkMetricsConfig();
        final boolean http = Boolean.parseBoolean(allowHttp);
        final boolean grpc = Boolean.parseBoolean(allowGrpc);
        final boolean metrics = Boolean.parseBoolean(allowMetrics);
        final String address = address(http, grpc, metrics);
        checkPortCollision(address, http, grpc, metrics);
        final Map<String, String> settings = new LinkedHashMap<>(frontendSettings);
        if (httpMaxInputSize != null)
        {
            if (httpMaxInputSize <= 0)
            {
                throw CliException.usage("Bad option: \"--http-max-input-size\". Error: --http-max-input-size must "
                    + "be greater than 0.");
            }
            settings.put(KServeFrontend.MAX_REQUEST_BYTES, Long.toString(httpMaxInputSize));
        }
        if (allowClientShm != null)
        {
            settings.put(KServeFrontend.ALLOW_CLIENT_SHM, allowClientShm);
        }
        return new ServeOptions(address, httpPort, grpcPort, metricsPort, Optional.ofNullable(ipcName), settings,
            httpRestrictedApi, grpcRestrictedProtocol, http, grpc, metrics);
    }

    /** One address for every listener: Ingot's listeners share it. */
    private String address(final boolean http, final boolean grpc, final boolean metrics)
    {
        final Map<String, String> given = new LinkedHashMap<>();
        put(given, "--host", host, true);
        put(given, "--http-address", httpAddress, http);
        put(given, "--grpc-address", grpcAddress, grpc);
        put(given, "--metrics-address", metricsAddress, metrics);
        final Set<String> distinct = new LinkedHashSet<>(given.values());
        if (distinct.size() > 1)
        {
            throw CliException.usage("Ingot binds every listener to one address, but " + given + " differ: give "
                + "the same address to each (or --host alone)");
        }
        return distinct.isEmpty() ? DEFAULT_HOST : distinct.iterator().next();
    }

    private static void put(final Map<String, String> given, final String flag, final String value,
        final boolean listening)
    {
        if (value != null && listening)
        {
            given.put(flag, value);
        }
    }

    /** Triton's check, with Triton's message: two listeners on one address and port cannot both bind. */
    private void checkPortCollision(final String address, final boolean http, final boolean grpc,
        final boolean metrics)
    {
        final Map<String, Integer> ports = new LinkedHashMap<>();
        if (http && httpPort > 0)
        {
            ports.put("HTTP", httpPort);
        }
        if (grpc && grpcPort > 0)
        {
            ports.put("GRPC", grpcPort);
        }
        if (metrics && metricsPort > 0)
        {
            ports.put("metrics", metricsPort);
        }
        final List<Map.Entry<String, Integer>> listeners = List.copyOf(ports.entrySet());
        for (int i = 0; i < listeners.size(); i++)
        {
            for (int j = i + 1; j < listeners.size(); j++)
            {
                if (listeners.get(i).getValue().equals(listeners.get(j).getValue()))
                {
                    throw CliException.usage("The server cannot listen to " + listeners.get(i).getKey()
                        + " requests and " + listeners.get(j).getKey() + " requests at the same address and port "
                        + address + ":" + listeners.get(i).getValue());
                }
            }
        }
    }

    /**
     * Triton's {@code --metrics-config} settings (read in Triton core's {@code metric_model_reporter.cc}): Ingot's
     * metrics are latency counters, without histograms or summaries, so the settings that ask for exactly that are
     * accepted and the others refused by name.
     */
    private void checkMetricsConfig()
    {
        for (final String setting : metricsConfig)
        {
            final int equals = setting.indexOf('=');
            if (equals <= 0 || equals == setting.length() - 1 || setting.substring(0, equals).contains(","))
            {
                throw CliException.usage("Bad option: \"--metrics-config\". --metrics-config option format is "
                    + "<setting>=<value>. Got " + setting);
            }
            final String key = setting.substring(0, equals);
            final String value = setting.substring(equals + 1);
            final String refusal = switch (key)
            {
                case "counter_latencies" -> metricsSwitch(value, true,
                    "Ingot always exports the latency counters (nv_inference_*_duration_us)");
                case "histogram_latencies" -> metricsSwitch(value, false, "Ingot exports no latency histograms");
                case "summary_latencies" -> metricsSwitch(value, false, "Ingot exports no latency summaries");
                case "summary_quantiles" -> "Ingot exports no latency summaries, so there are no quantiles to set";
                default -> "unknown setting '" + key + "' (Triton's are counter_latencies, histogram_latencies, "
                    + "summary_latencies and summary_quantiles)";
            };
            if (refusal != null)
            {
                throw CliException.usage("--metrics-config " + setting + " is not supported: " + refusal);
            }
        }
    }

    private static String metricsSwitch(final String value, final boolean supported, final String reason)
    {
        final boolean on;
        try
        {
            on = TritonValues.parseBoolean(value);
        }
        catch (final RuntimeException e)
        {
            return e.getMessage();
        }
        return on == supported ? null : reason + " (only " + Boolean.toString(supported).toLowerCase(Locale.ROOT)
            + " is accepted)";
    }
}
