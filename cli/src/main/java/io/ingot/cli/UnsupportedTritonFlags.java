package io.ingot.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

import java.util.List;
import java.util.Locale;

/**
 * The flags of Triton's {@code tritonserver} that {@code ingot serve} does not support, each with the reason. They are
 * registered as hidden options, so that a Triton command line is refused with that reason rather than picocli's
 * "Unknown option". A flag whose given value asks for what Ingot does anyway (Triton's {@code --grpc-use-ssl=false})
 * is accepted.
 *
 * <p>The list is Triton's {@code src/command_line_parser.cc} (server 2.6x), less the flags {@code serve} implements.
 * Immutable and thread-safe.
 */
final class UnsupportedTritonFlags
{
    /**
     * One unsupported flag.
     *
     * @param name     the flag, with its dashes
     * @param bool     whether it takes a Triton boolean (its value may then be omitted, meaning true)
     * @param accepted the one value that asks for Ingot's behaviour (lower case; booleans as true/false), or null
     * @param reason   why Ingot does not support it
     */
    record Flag(String name, boolean bool, String accepted, String reason)
    {
    }

    private static final String NO_TLS = "Ingot's gRPC listener speaks plaintext only; terminate TLS in front of it "
        + "(a proxy or service mesh)";
    private static final String NO_CACHE_LIBRARIES = "Ingot's local response cache is built in (--cache-config "
        + "local,size=<bytes>); it loads no cache libraries";
    private static final String NO_CUDA_POOL = "Ingot keeps no CUDA memory pool of its own; device memory belongs to "
        + "the backends";
    private static final String GRPC_FIXED = "Ingot's gRPC keepalive and connection-age policy is not settable from "
        + "the command line (its defaults are in server/README.md)";
    private static final String NO_SAGEMAKER = "Ingot serves no SageMaker endpoint";
    private static final String NO_VERTEX = "Ingot serves no Vertex AI endpoint";

    /** Every unsupported flag, in the order of Triton's usage text. */
    static final List<Flag> FLAGS = List.of(
        new Flag("--model-load-thread-count", false, "1", "Ingot loads the models one after another at start-up"),
        new Flag("--model-load-retry-count", false, "0", "Ingot does not retry a failed load"),
        new Flag("--model-namespacing", true, "false", "Ingot keeps one namespace of model names: a name found in "
            + "two repositories is not loaded, as in Triton without namespacing"),
        new Flag("--enable-peer-access", true, "false", "Ingot does not enable CUDA peer access between GPUs"),
        new Flag("--reuse-http-port", true, "false", "Ingot's listeners do not share ports (SO_REUSEPORT); run "
            + "replicas on their own ports behind a load balancer"),
        new Flag("--http-header-forward-pattern", false, null, "Ingot does not forward HTTP headers as request "
            + "parameters"),
        new Flag("--http-thread-count", false, null, "the HTTP listener's event-loop threads (one per core, at least "
            + "2) are not settable from the command line"),
        new Flag("--reuse-grpc-port", true, "false", "Ingot's listeners do not share ports (SO_REUSEPORT); run "
            + "replicas on their own ports behind a load balancer"),
        new Flag("--grpc-header-forward-pattern", false, null, "Ingot does not forward gRPC metadata as request "
            + "parameters"),
        new Flag("--grpc-infer-thread-count", false, null, "Ingot's gRPC handlers run on the listener's event loops "
            + "and virtual threads; there is no handler pool to size"),
        new Flag("--grpc-infer-allocation-pool-size", false, null, "Ingot's gRPC frontend keeps no pool of request "
            + "states to size"),
        new Flag("--grpc-max-response-pool-size", false, null, "Ingot's gRPC frontend keeps no pool of responses to "
            + "size"),
        new Flag("--grpc-use-ssl", true, "false", NO_TLS),
        new Flag("--grpc-use-ssl-mutual", true, "false", NO_TLS),
        new Flag("--grpc-server-cert", false, null, NO_TLS),
        new Flag("--grpc-server-key", false, null, NO_TLS),
        new Flag("--grpc-root-cert", false, null, NO_TLS),
        new Flag("--grpc-infer-response-compression-level", false, "none", "Ingot's gRPC responses are not "
            + "compressed"),
        new Flag("--grpc-keepalive-time", false, null, GRPC_FIXED),
        new Flag("--grpc-keepalive-timeout", false, null, GRPC_FIXED),
        new Flag("--grpc-keepalive-permit-without-calls", true, null, GRPC_FIXED),
        new Flag("--grpc-http2-max-pings-without-data", false, null, GRPC_FIXED),
        new Flag("--grpc-http2-min-recv-ping-interval-without-data", false, null, GRPC_FIXED),
        new Flag("--grpc-http2-max-ping-strikes", false, null, GRPC_FIXED),
        new Flag("--grpc-max-connection-age", false, null, GRPC_FIXED),
        new Flag("--grpc-max-connection-age-grace", false, null, GRPC_FIXED),
        new Flag("--allow-sagemaker", true, "false", NO_SAGEMAKER),
        new Flag("--sagemaker-port", false, null, NO_SAGEMAKER),
        new Flag("--sagemaker-safe-port-range", false, null, NO_SAGEMAKER),
        new Flag("--sagemaker-thread-count", false, null, NO_SAGEMAKER),
        new Flag("--allow-vertex-ai", true, "false", NO_VERTEX),
        new Flag("--vertex-ai-port", false, null, NO_VERTEX),
        new Flag("--vertex-ai-thread-count", false, null, NO_VERTEX),
        new Flag("--vertex-ai-default-model", false, null, NO_VERTEX),
        new Flag("--allow-gpu-metrics", true, "false", "Ingot exports no GPU metrics (nv_gpu_*)"),
        new Flag("--allow-cpu-metrics", true, "false", "Ingot exports no CPU metrics (nv_cpu_*)"),
        new Flag("--metrics-interval-ms", false, null, "Ingot reads every metric when /metrics is scraped, so there "
            + "is no collection interval"),
        new Flag("--cache-directory", false, null, NO_CACHE_LIBRARIES),
        new Flag("--pinned-memory-pool-byte-size", false, null, "Ingot's pinned staging memory is not drawn from a "
            + "pool of fixed size: each model instance allocates its own staging buffers"),
        new Flag("--cuda-memory-pool-byte-size", false, null, NO_CUDA_POOL),
        new Flag("--cuda-virtual-address-size", false, null, NO_CUDA_POOL),
        new Flag("--min-supported-compute-capability", false, null, "Ingot uses every GPU the CUDA runtime reports"),
        new Flag("--buffer-manager-thread-count", false, "0", "Ingot copies tensors on the thread that serves the "
            + "request; there is no buffer-manager pool"),
        new Flag("--host-policy", false, null, "Ingot has no host policies (NUMA node, CPU cores)"),
        new Flag("--model-load-gpu-limit", false, null, "Ingot does not limit loads by GPU memory use"),
        new Flag("--backend-directory", false, null, "Ingot's backends are Java modules found on the class path "
            + "(java.util.ServiceLoader), not shared libraries in a directory"),
        new Flag("--repoagent-directory", false, null, "Ingot has no repository agents"));

    private UnsupportedTritonFlags()
    {
    }

    /**
     * Adds every unsupported flag to a command as a hidden option.
     *
     * @param spec the command ({@code serve})
     */
    static void register(final CommandSpec spec)
    {
        for (final Flag flag : FLAGS)
        {
            final OptionSpec.Builder option = OptionSpec.builder(flag.name()).type(String.class).hidden(true)
                .description("Triton's; not supported: " + flag.reason());
            if (flag.bool())
            {
                option.arity("0..1").fallbackValue("true").converters(new TritonValues.BooleanText());
            }
            else
            {
                option.arity("1");
            }
            spec.addOption(option.build());
        }
    }

    /**
     * Refuses the first unsupported flag given, unless its value is the one that asks for Ingot's behaviour.
     *
     * @param parsed the parsed command line
     * @throws CliException naming the flag and why it is not supported
     */
    static void check(final ParseResult parsed)
    {
        for (final Flag flag : FLAGS)
        {
            if (!parsed.hasMatchedOption(flag.name()))
            {
                continue;
            }
            final List<String> values = parsed.matchedOption(flag.name()).stringValues();
            final String value = values.isEmpty() ? "true" : values.getLast();
            final String normalized = flag.bool() ? Boolean.toString(TritonValues.parseBoolean(value))
                : value.trim().toLowerCase(Locale.ROOT);
            if (flag.accepted() != null && flag.accepted().equals(normalized))
            {
                continue;
            }
            throw CliException.usage("Triton's " + flag.name() + " is not supported by Ingot: " + flag.reason()
                + (flag.accepted() == null ? "" : " (only " + flag.name() + "=" + flag.accepted()
                + ", which asks for what Ingot does, is accepted)"));
        }
    }
}
