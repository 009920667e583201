package io.ingot.cli;

import io.ingot.api.CoreOptions;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.api.ModelControlMode;
import io.ingot.server.Frontend;
import io.ingot.server.RunningFrontend;
import io.ingot.server.ServeOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code ingot serve}: loads every model of the repositories, prints the model table, starts the frontends found on
 * the class path and serves until interrupted.
 *
 * <p>On SIGINT (Ctrl-C) or SIGTERM it stops gracefully, within {@code --exit-timeout-secs} (Triton's option, default
 * 30): every frontend stops accepting connections and requests; the core closes, answering every queued request
 * UNAVAILABLE and letting running batches finish; every frontend delivers the answers of the requests it took; then
 * the frontends close and the process exits (0, or 1 when the timeout cut the drain short). A second signal exits
 * at once ({@link ShutdownSignals}).
 *
 * <p>Its flags are Triton's {@code tritonserver} flags, with Triton's names, value syntax ({@code --flag=true|false|
 * on|off|1|0}, or a bare {@code --flag} for true), defaults ({@code --exit-on-error} and {@code --strict-readiness}
 * true) and messages; {@link UnsupportedTritonFlags} lists the Triton flags it refuses, and why. A repository that
 * does not exist is a start-up error naming it; one that exists but cannot be read stops the start with
 * {@code --exit-on-error} and otherwise is served without, not ready ({@link UnreadableRepositoryGate}).
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Load every model of the repositories and serve them until interrupted (Ctrl-C).",
        "Takes Triton's tritonserver flags under Triton's names and defaults; a Triton flag Ingot does not support "
            + "is refused with the reason."})
final class ServeCommand implements Callable<Integer>
{
    @Mixin
    RepositoryOptions repository = new RepositoryOptions();

    @Mixin
    FrontendFlags frontend = new FrontendFlags();

    @Mixin
    LogOptions logging = new LogOptions();

    @Mixin
    TraceFlags tracing = new TraceFlags();

    @Option(names = "--model-control-mode", paramLabel = "<string>", defaultValue = "none",
        description = "Triton's: none loads every model at start-up (default); poll also rescans the repositories "
            + "every --repository-poll-secs; explicit loads only the --load-model models, and the model-repository "
            + "API loads and unloads.")
    String controlMode;

    @Option(names = "--load-model", paramLabel = "<string>",
        description = "Triton's: with --model-control-mode=explicit, a model to load at start-up; repeatable; '*' "
            + "(alone) for all.")
    List<String> loadModels = new ArrayList<>();

    @Option(names = "--repository-poll-secs", paramLabel = "<integer>", defaultValue = "15",
        converter = TritonValues.IntConverter.class,
        description = "Triton's: with --model-control-mode=poll, seconds between scans (default ${DEFAULT-VALUE}).")
    int repositoryPollSecs;

    @Option(names = "--exit-on-error", paramLabel = "<boolean>", arity = "0..1", fallbackValue = "true",
        defaultValue = "true", converter = TritonValues.BooleanText.class,
        description = "Triton's: exit (code 1) when a model fails to load at start-up (default true; false serves "
            + "the others, and the server is not ready under --strict-readiness).")
    String exitOnError;

    @Option(names = "--strict-readiness", paramLabel = "<boolean>", arity = "0..1", fallbackValue = "true",
        defaultValue = "true", converter = TritonValues.BooleanText.class,
        description = "Triton's: /v2/health/ready is ready only while every model is (default true); false: while "
            + "the server is live.")
    String strictReadiness;

    @Option(names = "--strict-model-config", paramLabel = "<boolean>", arity = "0..1", fallbackValue = "true",
        defaultValue = "false", converter = TritonValues.BooleanText.class,
        description = "Triton's (deprecated there): true turns auto-complete off, as --disable-auto-complete-config "
            + "does (default false).")
    String strictModelConfig;

    @Option(names = "--disable-auto-complete-config",
        description = "Triton's: configurations are not completed from the model files or the backend; each must be "
            + "complete by itself.")
    boolean disableAutoCompleteConfig;

    @Option(names = "--backend-config", paramLabel = "<string>,<string>=<string>",
        description = "Triton's: <backend>,<setting>=<value> for one backend, <setting>=<value> for every backend; "
            + "repeatable. Models receive them in ModelContext.backendConfig().")
    List<String> backendConfig = new ArrayList<>();

    @Option(names = "--cache-config", paramLabel = "<string>,<string>=<string>",
        description = "Triton's: local,size=<bytes> gives the models with response_cache { enable: true } a shared "
            + "local response cache of that many bytes; repeatable (the last size wins).")
    List<String> cacheConfig = new ArrayList<>();

    @Option(names = "--response-cache-byte-size", paramLabel = "<integer>",
        description = "Triton's deprecated form of --cache-config local,size=<integer>.")
    String responseCacheByteSize;

    @Option(names = "--rate-limit", paramLabel = "<string>",
        description = "Triton's: execution_count makes each instance execute only while it holds the resources of "
            + "its instance_group.rate_limiter, by priority across models; off (default) ignores rate_limiter.")
    String rateLimit;

    @Option(names = "--rate-limit-resource", paramLabel = "<string>:<integer>:<integer>",
        description = "Triton's: <name>:<count>[:<device>], the units of a resource (no device: every device; "
            + "ignored for global resources); repeatable. Without it each resource has the most any instance asks.")
    List<String> rateLimitResources = new ArrayList<>();

    @Option(names = "--idle-mode", paramLabel = "BLOCKING|BACKOFF|SPINNING", defaultValue = "BLOCKING",
        description = "Ingot's: how every server thread waits for work — model instances, the timekeeper and the "
            + "shared-memory server (--ipc). BLOCKING (default) spins 1 us, yields to about 20 us, then sleeps; "
            + "BACKOFF yields for about 1 ms first; SPINNING never sleeps (a core per instance thread).")
    IdleMode idleMode;

    @Option(names = "--id", paramLabel = "<string>",
        description = "Triton's: the server's name in server metadata (default ingot).")
    String serverId;

    @Option(names = "--exit-timeout-secs", paramLabel = "<integer>", defaultValue = "30",
        converter = TritonValues.IntConverter.class,
        description = "On SIGINT/SIGTERM, how long to wait for requests in flight before exiting anyway "
            + "(default ${DEFAULT-VALUE}, Triton's).")
    int exitTimeoutSecs;

    @Spec
    CommandSpec spec;

    private static final System.Logger LOG = System.getLogger(ServeCommand.class.getName());

    private final CoreOpener opener;
    private final PrintStream out;
    private final PrintStream err;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final CountDownLatch serving = new CountDownLatch(1);

    /**
     * @param opener opens the core
     * @param out    where the table and messages go
     */
    ServeCommand(final CoreOpener opener, final PrintStream out)
    {
        this(opener, out, System.err);
    }

    /**
     * @param opener opens the core
     * @param out    where the table and messages go
     * @param err    where Triton's deprecation warnings go
     */
    ServeCommand(final CoreOpener opener, final PrintStream out, final PrintStream err)
    {
        this.opener = opener;
        this.out = out;
        this.err = err;
    }

    /**
     * @param serve the command
     * @return its command line, with every unsupported Triton flag registered so that it is refused with its reason
     */
    static CommandLine commandLine(final ServeCommand serve)
    {
        final CommandLine line = new CommandLine(serve);
        UnsupportedTritonFlags.register(line.getCommandSpec());
        return line;
    }

    @Override
    public Integer call() throws Exception
    {
        final ParseResult parsed = spec.commandLine().getParseResult();
        UnsupportedTritonFlags.check(parsed);
        final ServeOptions serveOptions = frontend.serveOptions();
        if (exitTimeoutSecs < 0)
        {
            throw CliException.usage("--exit-timeout-secs must be 0 or more, was " + exitTimeoutSecs);
        }
        final List<String> traceConfig = tracing.entries(err);
        TraceFlags.check(traceConfig);
        final Map<Path, String> unreadable = repository.unreadable();
        final CoreOptions.Builder options = coreOptions(parsed, List.copyOf(unreadable.keySet()));
        logging.apply();
        final boolean exit = TritonValues.parseBoolean(exitOnError);
        unreadable.values().forEach(reason -> LOG.log(System.Logger.Level.ERROR, reason));
        if (!unreadable.isEmpty() && exit)
        {
            throw CliException.failure("failed to load all models: " + String.join("; ", unreadable.values())
                + " (--exit-on-error=false serves the readable repositories, not ready)");
        }
        InferenceCore core = opener.open(options.build());
        if (!unreadable.isEmpty() && TritonValues.parseBoolean(strictReadiness))
        {
            core = new UnreadableRepositoryGate(core);
        }
        TraceFlags.apply(core, traceConfig);
        final Deque<RunningFrontend> frontends = new ArrayDeque<>();
        final Thread hook = Thread.ofPlatform().unstarted(this::requestStopAndWait);
        Runtime.getRuntime().addShutdownHook(hook);
        boolean closed = false;
        try (ShutdownSignals ignored = ShutdownSignals.install(this::stop, out))
        {
            final ModelTable table = ModelTable.of(core);
            table.print(out);
            out.println();
            for (final String reason : unreadable.values())
            {
                out.println("Not ready: " + reason);
            }
            startFrontends(core, serveOptions, frontends);
            out.println("Ingot is serving " + table.rows().stream().filter(ModelTable.Row::ok).count()
                + " model version(s). Press Ctrl-C to stop.");
            out.flush();
            serving.countDown();
            stopRequested.await();
            closed = true;
            return stopGracefully(core, frontends);
        }
        finally
        {
            if (!closed)
            {
                closeAll(frontends);
                core.close();
            }
            out.println("Stopped.");
            out.flush();
            stopped.countDown();
            removeHook(hook);
        }
    }

    /**
     * The core's options from Triton's flags.
     *
     * @param parsed  the command line, to tell the flags given from the defaults
     * @param skipped repositories left out because they cannot be read
     * @return the options
     * @throws CliException for a value Triton would refuse, with Triton's message first
     */
    CoreOptions.Builder coreOptions(final ParseResult parsed, final List<Path> skipped)
    {
        final CoreOptions.Builder options = repository.coreOptions(skipped);
        options.exitOnError(TritonValues.parseBoolean(exitOnError))
            .strictReadiness(TritonValues.parseBoolean(strictReadiness));
        options.autoCompleteConfig(TritonValues.autoCompleteConfig(parsed.hasMatchedOption("--strict-model-config"),
            TritonValues.parseBoolean(strictModelConfig), disableAutoCompleteConfig, err));
        final ModelControlMode mode = switch (controlMode.toLowerCase(Locale.ROOT))
        {
            case "none" -> ModelControlMode.NONE;
            case "poll" -> ModelControlMode.POLL;
            case "explicit" -> ModelControlMode.EXPLICIT;
            default -> throw CliException.usage("Bad option: \"--model-control-mode\". invalid argument for "
                + "--model-control-mode: '" + controlMode + "' (none, poll or explicit)");
        };
        options.controlMode(mode);
        if (!loadModels.isEmpty() && mode != ModelControlMode.EXPLICIT)
        {
            throw CliException.usage("Error: Use of '--load-model' requires setting '--model-control-mode=explicit' "
                + "as well.");
        }
        if (loadModels.contains("*") && loadModels.size() > 1)
        {
            throw CliException.usage("Wildcard model name '*' must be the ONLY startup model if specified at all.");
        }
        loadModels.forEach(options::startupModel);
        if (mode == ModelControlMode.POLL)
        {
            if (repositoryPollSecs <= 0)
            {
                throw CliException.usage("--repository-poll-secs must be positive with --model-control-mode=poll, "
                    + "was " + repositoryPollSecs + " (Triton then never polls: use --model-control-mode=none)");
            }
            options.repositoryPollSeconds(repositoryPollSecs);
        }
        for (final String setting : backendConfig)
        {
            addBackendConfig(options, setting);
        }
        CacheConfigOption.apply(cacheConfig, responseCacheByteSize, options);
        RateLimitOptions.apply(rateLimit, rateLimitResources, options);
        if (serverId != null)
        {
            options.serverIdentity(serverId, CoreOptions.builder().build().serverVersion());
        }
        options.idleMode(idleMode);
        return options;
    }

    /** Triton's {@code --backend-config} syntax and messages ({@code ParseBackendConfigOption}). */
    private static void addBackendConfig(final CoreOptions.Builder options, final String setting)
    {
        final int equals = setting.indexOf('=');
        final int comma = equals < 0 ? setting.indexOf(',') : setting.lastIndexOf(',', equals);
        if (comma == 0)
        {
            throw CliException.usage("Bad option: \"--backend-config\". No backend specified. --backend-config "
                + "option format is <backend name>,<setting>=<value> or <setting>=<value>. Got " + setting);
        }
        if (equals < 0 || equals == comma + 1 || equals == setting.length() - 1)
        {
            throw CliException.usage("Bad option: \"--backend-config\". --backend-config option format is "
                + "'<backend name>,<setting>=<value>'. Got " + setting);
        }
        final String backend = comma < 0 ? "" : setting.substring(0, comma);
        options.backendConfig(backend, setting.substring(comma + 1, equals), setting.substring(equals + 1));
    }

    /**
     * Stops accepting everywhere, closes the core, waits for every frontend to deliver its answers, closes the
     * frontends; all within the exit timeout.
     *
     * @return 0 when every request was answered in time, 1 when the timeout cut the drain short
     */
    private int stopGracefully(final InferenceCore core, final Deque<RunningFrontend> frontends)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(exitTimeoutSecs);
        out.println("Stopping: accepting no new requests; answering those in flight (at most " + exitTimeoutSecs
            + " s)...");
        out.flush();
        for (final RunningFrontend frontend : frontends)
        {
            try
            {
                frontend.stopAccepting();
            }
            catch (final RuntimeException e)
            {
                System.err.println("warning: a frontend failed to stop accepting: " + e.getMessage());
            }
        }
        // The core answers queued requests UNAVAILABLE and lets running batches finish; the frontends deliver.
        final Thread closer = Thread.ofPlatform().name("ingot-core-close").start(core::close);
        closer.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        boolean drained = !closer.isAlive();
        for (final RunningFrontend frontend : frontends)
        {
            drained &= frontend.awaitDrained(deadline);
        }
        if (!drained)
        {
            out.println("Exit timeout of " + exitTimeoutSecs + " s reached with requests still in flight: exiting "
                + "without their answers.");
        }
        closeAll(frontends);
        return drained ? 0 : 1;
    }

    private void startFrontends(final InferenceCore core, final ServeOptions options,
        final Deque<RunningFrontend> started) throws Exception
    {
        int count = 0;
        for (final Frontend frontend : ServiceLoader.load(Frontend.class))
        {
            if (!frontend.isEnabled(options))
            {
                continue;
            }
            try
            {
                started.push(frontend.start(core, options));
            }
            catch (final Exception e)
            {
                throw CliException.failure("frontend '" + frontend.name() + "' could not start: " + e.getMessage());
            }
            out.println("Started " + frontend.describe(options));
            count++;
        }
        if (count == 0)
        {
            out.println("No network frontend runs: only the in-process API is available (none on the class path, or "
                + "--allow-http, --allow-grpc and --allow-metrics are all false"
                + (options.ipcName().isEmpty() ? "" : ", and no shared-memory transport '" + options.ipcName().get()
                + "'") + ").");
        }
    }

    private static void closeAll(final Deque<RunningFrontend> frontends)
    {
        while (!frontends.isEmpty())
        {
            try
            {
                frontends.pop().close();
            }
            catch (final Exception e)
            {
                System.err.println("warning: a frontend failed to stop cleanly: " + e.getMessage());
            }
        }
    }

    private void requestStopAndWait()
    {
        stopRequested.countDown();
        try
        {
            stopped.await(exitTimeoutSecs + 10L, TimeUnit.SECONDS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static void removeHook(final Thread hook)
    {
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException shuttingDown)
        {
            // The hook itself is running: the JVM is exiting, nothing to remove.
        }
    }

    /**
     * Asks a running {@code serve} to stop, as SIGINT does. For tests and embedders.
     */
    void stop()
    {
        stopRequested.countDown();
    }

    /**
     * @param timeout how long to wait
     * @param unit    its unit
     * @return true once the models are loaded and the frontends started
     * @throws InterruptedException when interrupted
     */
    boolean awaitServing(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return serving.await(timeout, unit);
    }

    /**
     * @param timeout how long to wait
     * @param unit    its unit
     * @return true once a {@code serve} that started serving has closed its frontends and its core
     * @throws InterruptedException when interrupted
     */
    boolean awaitStopped(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return stopped.await(timeout, unit);
    }
}
