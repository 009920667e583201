package io.ingot.cli;

import io.ingot.api.CoreOptions;
import io.ingot.api.IdleMode;
import io.ingot.api.ModelControlMode;
import io.ingot.server.KServeFrontend;
import io.ingot.server.ServeOptions;
import io.ingot.testing.Ports;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.logging.LogManager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ingot serve} takes Triton's command line: every Triton flag it supports maps to the option it claims, with
 * Triton's defaults and boolean syntax; every Triton flag it does not support is refused naming the flag and the
 * reason. Isolated: {@code serve} runs in this JVM (the test-scope {@link RecordingFrontend} records what every serve
 * tells it) and the log flags configure the process's logging.
 */
@Isolated
class TritonFlagsTest
{
    @TempDir
    Path repository;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @AfterEach
    void restoreLogging() throws IOException
    {
        LogManager.getLogManager().readConfiguration();
    }

    private void model(final Path root, final String name, final String config) throws IOException
    {
        Files.createDirectories(root.resolve(name).resolve("1"));
        Files.writeString(root.resolve(name).resolve("config.pbtxt"), config);
    }

    private void identityModel(final Path root, final String name) throws IOException
    {
        model(root, name, """
            name: "%s" backend: "identity" max_batch_size: 8
            input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ -1 ] } ]
            output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ -1 ] } ]
            """.formatted(name));
    }

    /** A serve command with the arguments parsed (not run). */
    private ServeCommand parse(final String... args)
    {
        final ServeCommand serve = new ServeCommand(CoreOpener.DEFAULT, new PrintStream(out, true,
            StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        ServeCommand.commandLine(serve).parseArgs(args);
        return serve;
    }

    private CoreOptions coreOptions(final String... args)
    {
        final ServeCommand serve = parse(args);
        return serve.coreOptions(serve.spec.commandLine().getParseResult(), List.of()).build();
    }

    private String[] withRepository(final String... args)
    {
        final List<String> all = new ArrayList<>(List.of("--model-repository", repository.toString()));
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    private int run(final String... args)
    {
        return IngotCli.run(args, CoreOpener.DEFAULT, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err()
    {
        return err.toString(StandardCharsets.UTF_8);
    }

    private String out()
    {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void defaultsAreTritons() throws IOException
    {
        final CoreOptions options = coreOptions(withRepository());
        assertTrue(options.exitOnError(), "--exit-on-error defaults to true, as Triton's");
        assertTrue(options.strictReadiness());
        assertTrue(options.autoCompleteConfig());
        assertEquals(ModelControlMode.NONE, options.controlMode());
        assertEquals(List.of(repository.toAbsolutePath().normalize()), options.repositories());
        final ServeOptions serve = parse(withRepository()).frontend.serveOptions();
        assertEquals(List.of(8000, 8001, 8002), List.of(serve.httpPort(), serve.grpcPort(), serve.metricsPort()));
        assertTrue(serve.allowHttp() && serve.allowGrpc() && serve.allowMetrics());
        assertEquals(30, parse(withRepository()).exitTimeoutSecs);
    }

    @Test
    void repositoryFlagsRepeatAndModelStoreIsTheirOtherName() throws IOException
    {
        final Path second = Files.createDirectories(repository.resolve("second"));
        final Path third = Files.createDirectories(repository.resolve("third"));
        final CoreOptions options = coreOptions("--model-repository", repository.toString(), "--model-repository",
            second.toString(), "--model-store=" + third);
        assertEquals(List.of(repository, second, third).stream().map(path -> path.toAbsolutePath().normalize())
            .toList(), options.repositories());
    }

    @Test
    void booleanFlagsTakeTritonsSyntax()
    {
        for (final String bare : List.of("--strict-model-config", "--strict-model-config=true",
            "--strict-model-config=1", "--strict-model-config=ON", "--disable-auto-complete-config"))
        {
            assertFalse(coreOptions(withRepository(bare)).autoCompleteConfig(), bare);
        }
        assertTrue(coreOptions(withRepository("--strict-model-config=false")).autoCompleteConfig());
        assertTrue(coreOptions(withRepository("--strict-model-config", "off")).autoCompleteConfig(),
            "a separate value, as getopt takes it");
        assertFalse(coreOptions(withRepository("--exit-on-error=false")).exitOnError());
        assertFalse(coreOptions(withRepository("--exit-on-error", "0")).exitOnError());
        assertTrue(coreOptions(withRepository("--exit-on-error")).exitOnError());
        assertFalse(coreOptions(withRepository("--strict-readiness=false")).strictReadiness());
        final CommandLine.ParameterException bad = assertThrows(CommandLine.ParameterException.class,
            () -> parse(withRepository("--exit-on-error=maybe")));
        assertTrue(bad.getMessage().contains("'--exit-on-error': invalid value for bool option: maybe"),
            bad.getMessage());
    }

    @Test
    void strictModelConfigWarnsAsTritonDoes()
    {
        coreOptions(withRepository("--strict-model-config=false", "--disable-auto-complete-config"));
        assertTrue(err().contains("Warning: '--strict-model-config' has been deprecated! Please use "
            + "'--disable-auto-complete-config' instead."), err());
        assertTrue(err().contains("Warning: Overriding deprecated '--strict-model-config' from False to True"),
            err());
    }

    @Test
    void modelControlFlagsMapToTheCoresModes()
    {
        final CoreOptions poll = coreOptions(withRepository("--model-control-mode=poll", "--repository-poll-secs",
            "3"));
        assertEquals(ModelControlMode.POLL, poll.controlMode());
        assertEquals(3, poll.repositoryPollSeconds());
        final CoreOptions explicit = coreOptions(withRepository("--model-control-mode", "EXPLICIT", "--load-model",
            "a", "--load-model=b"));
        assertEquals(ModelControlMode.EXPLICIT, explicit.controlMode());
        assertEquals(Set.of("a", "b"), explicit.startupModels());
        assertEquals(CoreOptions.DEFAULT_REPOSITORY_POLL_SECONDS, coreOptions(withRepository(
            "--repository-poll-secs=0")).repositoryPollSeconds(), "outside poll mode Triton ignores the interval");

        assertUsage("Bad option: \"--model-control-mode\". invalid argument for --model-control-mode: 'sometimes'",
            "--model-control-mode=sometimes");
        assertUsage("Error: Use of '--load-model' requires setting '--model-control-mode=explicit' as well.",
            "--load-model=a");
        assertUsage("Wildcard model name '*' must be the ONLY startup model", "--model-control-mode=explicit",
            "--load-model=*", "--load-model=a");
        assertUsage("--repository-poll-secs must be positive with --model-control-mode=poll",
            "--model-control-mode=poll", "--repository-poll-secs=0");
    }

    private void assertUsage(final String message, final String... args)
    {
        final CliException failure = assertThrows(CliException.class, () -> coreOptions(withRepository(args)));
        assertEquals(CliException.USAGE, failure.exitCode());
        assertTrue(failure.getMessage().contains(message), failure.getMessage());
    }

    @Test
    void idleModeGovernsTheWholeServerAndDefaultsToBlocking()
    {
        assertEquals(IdleMode.BLOCKING, coreOptions(withRepository()).idleMode());
        assertEquals(IdleMode.SPINNING, coreOptions(withRepository("--idle-mode", "SPINNING")).idleMode());
        assertEquals(IdleMode.BACKOFF, coreOptions(withRepository("--idle-mode=BACKOFF")).idleMode());
        assertEquals(CliException.USAGE, run("serve", "--model-repository", repository.toString(), "--idle-mode",
            "sleepy"));
        assertTrue(err().contains("--idle-mode") && err().contains("sleepy"), err());
    }

    @Test
    void backendConfigTakesTritonsSyntax()
    {
        final CoreOptions options = coreOptions(withRepository("--backend-config", "onnxruntime,intra_op=4",
            "--backend-config=default-max-batch-size=8", "--backend-config=python,shm-region-prefix=a,b"));
        assertEquals(Map.of("intra_op", "4", "default-max-batch-size", "8"),
            options.backendConfigFor("onnxruntime"));
        assertEquals(Map.of("default-max-batch-size", "8", "shm-region-prefix", "a,b"),
            options.backendConfigFor("python"));
        assertUsage("No backend specified. --backend-config option format is <backend name>,<setting>=<value> or "
            + "<setting>=<value>. Got ,a=b", "--backend-config=,a=b");
        assertUsage("--backend-config option format is '<backend name>,<setting>=<value>'. Got onnxruntime,a",
            "--backend-config=onnxruntime,a");
        assertUsage("Got onnxruntime,a=", "--backend-config=onnxruntime,a=");
    }

    @Test
    void frontendFlagsMapToServeOptions()
    {
        final ServeOptions options = parse(withRepository("--http-port=9100", "--grpc-port", "9101",
            "--metrics-port=9102", "--allow-http=false", "--allow-grpc", "--allow-metrics=0",
            "--http-address=0.0.0.0", "--grpc-address", "0.0.0.0", "--http-max-input-size=1024",
            "--allow-client-shm=false", "--metrics-config=counter_latencies=true",
            "--metrics-config=summary_latencies=false", "--http-restricted-api=model-repository:k=v"))
            .frontend.serveOptions();
        assertEquals(List.of(9100, 9101, 9102), List.of(options.httpPort(), options.grpcPort(),
            options.metricsPort()));
        assertFalse(options.allowHttp());
        assertTrue(options.allowGrpc());
        assertFalse(options.allowMetrics());
        assertEquals("0.0.0.0", options.host());
        assertEquals("1024", options.settings().get(KServeFrontend.MAX_REQUEST_BYTES));
        assertEquals("false", options.settings().get(KServeFrontend.ALLOW_CLIENT_SHM));
        assertEquals(List.of("model-repository:k=v"), options.httpRestrictedApi());
        assertEquals("ingot-test", coreOptions(withRepository("--id=ingot-test")).serverName());
    }

    @Test
    void frontendFlagsIngotCannotHonourAreRefusedByName()
    {
        assertServeUsage("Ingot binds every listener to one address", "--http-address=0.0.0.0",
            "--grpc-address=127.0.0.1");
        assertServeUsage("The server cannot listen to HTTP requests and GRPC requests at the same address and port "
            + "127.0.0.1:9000", "--http-port=9000", "--grpc-port=9000");
        assertServeUsage("--metrics-config summary_latencies=true is not supported: Ingot exports no latency "
            + "summaries", "--metrics-config=summary_latencies=true");
        assertServeUsage("--metrics-config counter_latencies=false is not supported",
            "--metrics-config=counter_latencies=false");
        assertServeUsage("--metrics-config summary_quantiles=0.5:0.05 is not supported",
            "--metrics-config=summary_quantiles=0.5:0.05");
        assertServeUsage("unknown setting 'gpu_labels'", "--metrics-config=gpu_labels=x");
        assertServeUsage("--metrics-config option format is <setting>=<value>. Got summary_latencies",
            "--metrics-config=summary_latencies");
        assertServeUsage("Error: --http-max-input-size must be greater than 0.", "--http-max-input-size=0");
    }

    private void assertServeUsage(final String message, final String... args)
    {
        final CliException failure = assertThrows(CliException.class,
            () -> parse(withRepository(args)).frontend.serveOptions());
        assertEquals(CliException.USAGE, failure.exitCode());
        assertTrue(failure.getMessage().contains(message), failure.getMessage());
    }

    @Test
    void everyUnsupportedTritonFlagIsRefusedWithItsReason()
    {
        for (final UnsupportedTritonFlags.Flag flag : UnsupportedTritonFlags.FLAGS)
        {
            out.reset();
            err.reset();
            final String value = flag.bool() ? "true" : "7";
            assertEquals(CliException.USAGE, run("serve", "--model-repository", repository.toString(),
                flag.name() + "=" + value), flag.name());
            assertTrue(err().contains("error: Triton's " + flag.name() + " is not supported by Ingot: "
                + flag.reason()), err());
            assertFalse(err().contains("Unknown option"), err());
        }
    }

    @Test
    void unsupportedFlagsGivenIngotsBehaviourAreAccepted()
    {
        final List<String> accepted = UnsupportedTritonFlags.FLAGS.stream().filter(flag -> flag.accepted() != null)
            .map(flag -> flag.name() + "=" + flag.accepted()).toList();
        assertTrue(accepted.containsAll(List.of("--model-load-retry-count=0", "--grpc-use-ssl=false",
            "--buffer-manager-thread-count=0")), accepted.toString());
        final ServeCommand serve = parse(withRepository(accepted.toArray(String[]::new)));
        UnsupportedTritonFlags.check(serve.spec.commandLine().getParseResult());
        final ServeCommand upper = parse(withRepository("--grpc-infer-response-compression-level=NONE",
            "--grpc-use-ssl", "0"));
        UnsupportedTritonFlags.check(upper.spec.commandLine().getParseResult());
    }

    @Test
    void cacheConfigSizesTheLocalCacheAndRefusesWhatItIsNot()
    {
        assertEquals(1_048_576, coreOptions(withRepository("--cache-config", "local,size=1048576"))
            .responseCacheBytes());
        assertEquals(4096, coreOptions(withRepository("--response-cache-byte-size", "4096")).responseCacheBytes());
        assertEquals(0, coreOptions(withRepository()).responseCacheBytes(), "no cache unless asked for, as Triton");
        assertEquals(CliException.USAGE, run("serve", "--model-repository", repository.toString(), "--cache-config",
            "size=10"));
        assertTrue(err().contains("No cache specified. --cache-config option format is <cache name>,<setting>="
            + "<value>. Got size=10"), err());
        assertEquals(CliException.USAGE, run("serve", "--model-repository", repository.toString(), "--cache-config",
            "redis,host=localhost"));
        assertTrue(err().contains("cache 'redis' is not supported by Ingot"), err());
        assertEquals(CliException.USAGE, run("serve", "--model-repository", repository.toString(), "--cache-config",
            "local,size=-5"));
        assertTrue(err().contains("must be a positive number of bytes, got '-5'"), err());
    }

    @Test
    void aMissingRepositoryIsAStartupErrorNamingIt()
    {
        final Path missing = repository.resolve("not-mounted");
        assertEquals(CliException.USAGE, run("serve", "--model-repository", missing.toString()));
        assertTrue(err().contains("error: failed to poll model repository '" + missing + "': failed to open "
            + "directory " + missing + ": no such directory"), err());
        err.reset();
        assertEquals(CliException.USAGE, run("serve", "--http-port=0"));
        assertTrue(err().contains("error: --model-repository must be specified"), err());
    }

    /**
     * A directory this process cannot list: a temporary one without permissions where that stops this user (not
     * root), else {@code /proc/1/map_files}, which needs CAP_SYS_ADMIN to list (containers' root has not).
     */
    private Path unreadableDirectory() throws IOException
    {
        final Path locked = Files.createDirectories(repository.resolve("locked"));
        identityModel(locked, "hidden");
        locked.toFile().setReadable(false, false);
        locked.toFile().setExecutable(false, false);
        for (final Path candidate : List.of(locked, Path.of("/proc/1/map_files")))
        {
            if (Files.isDirectory(candidate) && !listable(candidate))
            {
                return candidate;
            }
        }
        org.junit.jupiter.api.Assumptions.abort("no directory here is unreadable to this process");
        return null;
    }

    private static boolean listable(final Path directory)
    {
        try (var entries = Files.list(directory))
        {
            entries.forEach(entry -> { });
            return true;
        }
        catch (final IOException | RuntimeException e)
        {
            return false;
        }
    }

    @Test
    void anUnreadableRepositoryKeepsTheServerNotReadyAndSaysWhy() throws Exception
    {
        final Path served = Files.createDirectories(repository.resolve("served"));
        identityModel(served, "echo");
        final Path unreadable = unreadableDirectory();
        try
        {
            assertEquals(CliException.FAILURE, run("serve", "--model-repository", served.toString(),
                "--model-repository", unreadable.toString(), "--http-port=0", "--grpc-port=0", "--metrics-port=0"));
            assertTrue(err().contains("error: failed to load all models: failed to poll model repository '"
                + unreadable + "': failed to open directory " + unreadable + ": cannot be read"), err());

            final int httpPort = Ports.free();
            final ServeCommand serve = serveInBackground("--model-repository", served.toString(),
                "--model-repository", unreadable.toString(), "--exit-on-error=false", "--http-port=" + httpPort,
                "--grpc-port=0", "--metrics-port=0");
            try
            {
                assertEquals(200, get(httpPort, "/v2/health/live"));
                assertEquals(400, get(httpPort, "/v2/health/ready"), "a repository is missing: not ready");
                assertEquals(200, get(httpPort, "/v2/models/echo/ready"), "the readable repository is served");
                assertTrue(out().contains("Not ready: failed to poll model repository '" + unreadable + "'"), out());
            }
            finally
            {
                stop(serve);
            }
        }
        finally
        {
            repository.resolve("locked").toFile().setReadable(true, false);
            repository.resolve("locked").toFile().setExecutable(true, false);
        }
    }

    @Test
    void exitOnErrorIsOnByDefaultAndStopsOnABrokenModel() throws IOException
    {
        identityModel(repository, "good");
        model(repository, "broken", """
            name: "broken" backend: "identity" max_batch_size: 8
            input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 0 ] } ]
            output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ -1 ] } ]
            """);
        assertEquals(CliException.FAILURE, run("serve", "--model-repository", repository.toString(), "--http-port=0",
            "--grpc-port=0", "--metrics-port=0"));
        assertTrue(err().contains("1 model(s) failed to load at start-up (exit on error): broken: "), err());
        assertFalse(out().contains("Ingot is serving"), out());
    }

    @Test
    void withoutExitOnErrorABrokenModelKeepsTheServerNotReady() throws Exception
    {
        identityModel(repository, "good");
        model(repository, "broken", "name: \"broken\" backend: \"identity\" max_batch_size: -3\n");
        final int httpPort = Ports.free();
        final ServeCommand serve = serveInBackground("--model-repository", repository.toString(),
            "--exit-on-error=false", "--http-port=" + httpPort, "--grpc-port=0", "--metrics-port=0");
        try
        {
            assertEquals(400, get(httpPort, "/v2/health/ready"), "strict readiness: a model is not ready");
            assertEquals(200, get(httpPort, "/v2/models/good/ready"));
            assertTrue(out().contains("Ingot is serving 1 model version(s)"), out());
        }
        finally
        {
            stop(serve);
        }
    }

    @Test
    void strictModelConfigServesCompleteConfigurations() throws Exception
    {
        identityModel(repository, "echo");
        final int httpPort = Ports.free();
        final ServeCommand serve = serveInBackground("--strict-model-config=true", "--model-repository",
            repository.toString(), "--http-port=" + httpPort, "--grpc-port=0", "--metrics-port=0");
        try
        {
            assertEquals(200, get(httpPort, "/v2/health/ready"));
            assertEquals(200, get(httpPort, "/v2/models/echo/ready"));
        }
        finally
        {
            stop(serve);
        }
    }

    @Test
    void traceFlagsSetTheGlobalTraceSettingAndTheDeprecatedOnesWarnAsTritonDoes() throws Exception
    {
        identityModel(repository, "echo");
        final Path file = repository.resolve("trace.json");
        final int httpPort = Ports.free();
        final ServeCommand serve = serveInBackground("--model-repository", repository.toString(),
            "--http-port=" + httpPort, "--grpc-port=0", "--metrics-port=0", "--trace-config", "level=TIMESTAMPS",
            "--trace-config", "triton,file=" + file, "--trace-rate=7", "--trace-config", "rate=3",
            "--trace-count=5");
        try
        {
            final String setting = body(httpPort, "/v2/trace/setting");
            assertTrue(setting.contains("\"trace_level\":[\"TIMESTAMPS\"]"), setting);
            assertTrue(setting.contains("\"trace_rate\":\"3\""), "--trace-config is read after --trace-rate: "
                + setting);
            assertTrue(setting.contains("\"trace_count\":\"5\""), setting);
            assertTrue(setting.contains("\"trace_file\":\"" + file + "\""), setting);
            assertTrue(err().contains("Warning: '--trace-count' has been deprecated and will be removed in future "
                + "releases. Please use '--trace-config count=<count value> instead."), err());
            assertTrue(err().contains("Warning: '--trace-rate' has been deprecated"), err());
        }
        finally
        {
            stop(serve);
        }
    }

    @Test
    void malformedTraceFlagsAreRefusedBeforeAnyModelLoads()
    {
        assertEquals(CliException.USAGE, run("serve", "--model-repository", repository.toString(),
            "--trace-config", "level=LOUD"));
        assertTrue(err().contains("Unable to parse 'trace_level', got: LOUD"), err());
        err.reset();
        assertEquals(CliException.USAGE, run("serve", "--model-repository", repository.toString(),
            "--trace-config", "colour=blue"));
        assertTrue(err().contains("invalid --trace-config entry 'colour=blue': unknown setting 'colour'"), err());
        err.reset();
        assertEquals(CliException.USAGE, run("serve", "--model-repository", repository.toString(),
            "--trace-config", "level=TIMESTAMPS"));
        assertTrue(err().contains("Attempting to set invalid trace setting :"), err());
        assertFalse(out().contains("Ingot is serving"), out());
    }

    @Test
    void allowHttpFalseBindsNoHttpListener() throws Exception
    {
        identityModel(repository, "echo");
        final int httpPort = Ports.free();
        final ServeCommand serve = serveInBackground("--model-repository", repository.toString(),
            "--allow-http=false", "--http-port=" + httpPort, "--grpc-port=0", "--metrics-port=0");
        try
        {
            assertThrows(ConnectException.class, () ->
            {
                try (Socket socket = new Socket())
                {
                    socket.connect(new InetSocketAddress("127.0.0.1", httpPort), 2000);
                }
            });
            assertTrue(out().contains("Started gRPC on 127.0.0.1:0, metrics on http://127.0.0.1:0/metrics"), out());
        }
        finally
        {
            stop(serve);
        }
    }

    @Test
    void logFlagsChooseWhatIsLoggedWhereAndHow() throws IOException
    {
        final Path file = repository.resolve("triton.log");
        final ServeCommand serve = parse(withRepository("--log-verbose=1", "--log-info=false", "--log-warning",
            "false", "--log-file", file.toString(), "--log-format=ISO8601"));
        serve.logging.apply();
        final System.Logger log = System.getLogger("io.ingot.test.LogFlags");
        log.log(System.Logger.Level.DEBUG, "verbose one");
        log.log(System.Logger.Level.TRACE, "verbose two");
        log.log(System.Logger.Level.INFO, "an info");
        log.log(System.Logger.Level.WARNING, "a warning");
        log.log(System.Logger.Level.ERROR, "an error");
        final String text = Files.readString(file);
        assertTrue(text.contains("verbose one") && text.contains("an error"), text);
        assertFalse(text.contains("verbose two") || text.contains("an info") || text.contains("a warning"), text);
        assertTrue(text.matches("(?s)\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ V \\d+ LogFlags\\] verbose one\\R"
            + "\\d{4}-.*Z E \\d+ LogFlags\\] an error\\R"), text);
        assertEquals(java.util.logging.Level.FINE, LogManager.getLogManager().getLogger("").getLevel());

        Files.delete(file);
        parse(withRepository("--log-file", file.toString(), "--log-error=false")).logging.apply();
        log.log(System.Logger.Level.DEBUG, "verbose off by default");
        log.log(System.Logger.Level.INFO, "an info");
        log.log(System.Logger.Level.ERROR, "an error");
        final String defaults = Files.readString(file);
        assertTrue(defaults.matches("I\\d{4} \\d\\d:\\d\\d:\\d\\d\\.\\d{6} \\d+ LogFlags\\] an info\\R"), defaults);
    }

    @Test
    void malformedLogFlagsAreRefusedByName()
    {
        final CliException format = assertThrows(CliException.class,
            () -> parse(withRepository("--log-format=json")).logging.apply());
        assertTrue(format.getMessage().contains("Bad option: \"--log-format\". invalid argument for --log-format"),
            format.getMessage());
        final CliException verbose = assertThrows(CliException.class,
            () -> parse(withRepository("--log-verbose=loud")).logging.apply());
        assertTrue(verbose.getMessage().contains("Bad option: \"--log-verbose\". Invalid option value. Got loud"),
            verbose.getMessage());
        final CliException file = assertThrows(CliException.class, () -> parse(withRepository("--log-file",
            repository.resolve("no").resolve("such").resolve("dir.log").toString())).logging.apply());
        assertTrue(file.getMessage().contains("Bad option: \"--log-file\". Failed to open log file: "),
            file.getMessage());
    }

    private ServeCommand serveInBackground(final String... args) throws InterruptedException
    {
        final ServeCommand serve = new ServeCommand(CoreOpener.DEFAULT, new PrintStream(out, true,
            StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        final CommandLine command = ServeCommand.commandLine(serve);
        final PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
        command.setErr(new java.io.PrintWriter(errors, true));
        Thread.ofPlatform().daemon().start(() -> command.execute(args));
        assertTrue(serve.awaitServing(60, TimeUnit.SECONDS), out() + err());
        return serve;
    }

    private static void stop(final ServeCommand serve) throws InterruptedException
    {
        serve.stop();
        assertTrue(serve.awaitStopped(30, TimeUnit.SECONDS), "serve did not stop");
    }

    private static String body(final int port, final String path) throws IOException, InterruptedException
    {
        try (HttpClient client = HttpClient.newHttpClient())
        {
            return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        }
    }

    private static int get(final int port, final String path) throws IOException, InterruptedException
    {
        try (HttpClient client = HttpClient.newHttpClient())
        {
            return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
        }
    }
}
