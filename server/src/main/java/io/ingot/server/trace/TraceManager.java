package io.ingot.server.trace;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The trace settings of one server, global and per model, as Triton's {@code TraceManager} keeps them, and the
 * sampling of requests. Defaults are Triton's: level OFF, rate 1000, count -1, log frequency 0, no file, mode
 * {@code triton}; start-up values come from {@link #configure} (Triton's {@code --trace-config}). A model's setting
 * holds the fields a request gave for it and follows the global setting for the others; clearing every field of a
 * model returns it to the global setting. An update that would leave tracing on but unable to trace is refused with
 * Triton's "Attempting to set invalid trace setting :<reason>".
 *
 * <p>Cost when off (the default): {@link #sample} reads one volatile field and returns {@code null}; nothing is
 * allocated. A sampled request costs one {@link ServerTrace}; the file is written by the {@link TraceWriter} thread.
 * One manager serves every frontend of a core ({@link #forCore}), so HTTP and gRPC share the settings. Thread-safe.
 */
public final class TraceManager implements AutoCloseable
{
    /** Triton's default sampling rate. */
    public static final long DEFAULT_RATE = 1000;

    private static final Map<InferenceCore, TraceManager> BY_CORE = Collections.synchronizedMap(new WeakHashMap<>());

    private final Object updates = new Object();
    private final AtomicLong ids = new AtomicLong();
    private final ConcurrentHashMap<String, TraceSetting> models = new ConcurrentHashMap<>();
    private final Set<String> fallbackModels = new HashSet<>();
    private final TraceWriter writer = new TraceWriter();
    private volatile TraceSetting globalDefault = new TraceSetting(false, false, DEFAULT_RATE, -1, 0, "", false,
        false, false, false, false);
    private volatile TraceSetting global = globalDefault;
    private volatile boolean anyModel;

    /**
     * @param core a core
     * @return the one manager of that core's frontends (made at the first call)
     */
    public static TraceManager forCore(final InferenceCore core)
    {
        return BY_CORE.computeIfAbsent(core, ignored -> new TraceManager());
    }

    /**
     * Closes the manager of a core, if it has one: what it buffered is written and the files are closed.
     *
     * @param core the core
     */
    public static void closeFor(final InferenceCore core)
    {
        final TraceManager manager = BY_CORE.remove(core);
        if (manager != null)
        {
            manager.close();
        }
    }

    /**
     * Sets the start-up settings, as Triton's {@code --trace-config} entries: {@code level=OFF|TIMESTAMPS|TENSORS}
     * (repeatable), {@code rate=N}, {@code count=N}, {@code mode=triton}, {@code triton,file=PATH},
     * {@code triton,log-frequency=N}.
     *
     * @param entries the entries
     * @throws InferenceException INVALID_ARG naming the entry and what was expected
     */
    public void configure(final List<String> entries)
    {
        final TraceSetting start = startup(entries);
        synchronized (updates)
        {
            final TraceSetting previous = global;
            globalDefault = start;
            global = start;
            writer.retire(previous);
        }
    }

    /**
     * Checks start-up entries as {@link #configure} reads them, without configuring anything, so that a command line
     * can refuse them before it loads a model.
     *
     * @param entries the entries
     * @throws InferenceException INVALID_ARG naming the entry and what was expected
     */
    public static void check(final List<String> entries)
    {
        startup(entries);
    }

    private static TraceSetting startup(final List<String> entries)
    {
        boolean timestamps = false;
        boolean tensors = false;
        long rate = DEFAULT_RATE;
        int count = -1;
        long logFrequency = 0;
        String file = "";
        for (final String entry : entries)
        {
            final int comma = entry.indexOf(',');
            final String mode = comma < 0 ? "" : entry.substring(0, comma);
            final String setting = comma < 0 ? entry : entry.substring(comma + 1);
            final int equals = setting.indexOf('=');
            if (equals < 0 || !(mode.isEmpty() || mode.equals("triton")))
            {
                throw new InferenceException(ErrorCode.INVALID_ARG, "invalid --trace-config entry '" + entry
                    + "': expected <setting>=<value> or triton,<setting>=<value> (mode 'opentelemetry' is not"
                    + " supported)");
            }
            final String key = setting.substring(0, equals);
            final String value = setting.substring(equals + 1);
            switch (key)
            {
                case "level" ->
                {
                    final TraceUpdate update = TraceUpdate.parse(null, List.of(value), null, null, null);
                    timestamps |= (update.level() & TraceUpdate.TIMESTAMPS) != 0;
                    tensors |= (update.level() & TraceUpdate.TENSORS) != 0;
                    if (update.level() == 0)
                    {
                        timestamps = false;
                        tensors = false;
                    }
                }
                case "rate" -> rate = TraceUpdate.parse(null, null, List.of(value), null, null).rate();
                case "count" -> count = TraceUpdate.parse(null, null, null, List.of(value), null).count();
                case "log-frequency" -> logFrequency = TraceUpdate.parse(null, null, null, null, List.of(value))
                    .logFrequency();
                case "file" -> file = value;
                case "mode" ->
                {
                    if (!value.equals("triton"))
                    {
                        throw new InferenceException(ErrorCode.INVALID_ARG, "invalid --trace-config entry '" + entry
                            + "': only trace mode 'triton' is supported");
                    }
                }
                default -> throw new InferenceException(ErrorCode.INVALID_ARG, "invalid --trace-config entry '"
                    + entry + "': unknown setting '" + key + "' (level, rate, count, mode, triton,file,"
                    + " triton,log-frequency)");
            }
        }
        final TraceSetting start = new TraceSetting(timestamps, tensors, rate, count, logFrequency, file, false,
            false, false, false, !file.isEmpty());
        if (!start.off() && start.invalidReason() != null)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "Attempting to set invalid trace setting :"
                + start.invalidReason());
        }
        return start;
    }

    /**
     * Decides whether a request to a model is traced: every {@code trace_rate}-th while traces remain.
     *
     * @param model    the model the request is for
     * @param frontend the frontend it came through, which names its receive and send timestamps
     * @return its trace, or {@code null} (always, while tracing is off)
     */
    public ServerTrace sample(final String model, final TraceFrontend frontend)
    {
        TraceSetting setting = global;
        if (anyModel)
        {
            final TraceSetting own = models.get(model);
            if (own != null)
            {
                setting = own;
            }
        }
        if (setting.off() || !setting.sample())
        {
            return null;
        }
        return new ServerTrace(ids.incrementAndGet(), setting, model, frontend);
    }

    /**
     * Hands a finished trace to the writer. Any thread.
     *
     * @param trace the trace, all its timestamps taken
     */
    public void complete(final ServerTrace trace)
    {
        writer.submit(trace);
    }

    /**
     * Applies an update, as Triton's {@code UpdateTraceSetting}.
     *
     * @param model  the model, or {@code ""} for the global setting
     * @param update the fields to change
     * @throws InferenceException INVALID_ARG when the result could not trace
     */
    void update(final String model, final TraceUpdate update)
    {
        synchronized (updates)
        {
            apply(model, update);
            if (model.isEmpty())
            {
                for (final String fallback : List.copyOf(fallbackModels))
                {
                    apply(fallback, new TraceUpdate(false, null, false, null, false, null, false, null));
                }
            }
        }
    }

    private void apply(final String model, final TraceUpdate update)
    {
        final TraceSetting current = model.isEmpty() ? global : models.get(model);
        final TraceSetting fallback = model.isEmpty() ? globalDefault : global;
        final boolean levelSpecified = !update.clearLevel()
            && (current != null && current.levelSpecified || update.level() != null);
        final boolean rateSpecified = !update.clearRate()
            && (current != null && current.rateSpecified || update.rate() != null);
        final boolean countSpecified = !update.clearCount()
            && (current != null && current.countSpecified || update.count() != null);
        final boolean frequencySpecified = !update.clearLogFrequency()
            && (current != null && current.logFrequencySpecified || update.logFrequency() != null);
        final boolean fileSpecified = current != null && current.fileSpecified;

        boolean timestamps = fallback.timestamps;
        boolean tensors = fallback.tensors;
        if (levelSpecified)
        {
            if (update.level() != null)
            {
                timestamps = (update.level() & TraceUpdate.TIMESTAMPS) != 0;
                tensors = (update.level() & TraceUpdate.TENSORS) != 0;
            }
            else
            {
                timestamps = current.timestamps;
                tensors = current.tensors;
            }
        }
        final long rate = !rateSpecified ? fallback.rate : update.rate() != null ? update.rate() : current.rate;
        final int count = !countSpecified ? fallback.remaining()
            : update.count() != null ? update.count() : current.remaining();
        final long frequency = !frequencySpecified ? fallback.logFrequency
            : update.logFrequency() != null ? update.logFrequency() : current.logFrequency;
        final String file = fileSpecified ? current.file : fallback.file;

        if (!model.isEmpty())
        {
            final boolean all = levelSpecified && rateSpecified && countSpecified && frequencySpecified
                && fileSpecified;
            final boolean none = !(levelSpecified || rateSpecified || countSpecified || frequencySpecified
                || fileSpecified);
            if (all)
            {
                fallbackModels.remove(model);
            }
            else if (none)
            {
                fallbackModels.remove(model);
                final TraceSetting removed = models.remove(model);
                anyModel = !models.isEmpty();
                if (removed != null)
                {
                    writer.retire(removed);
                }
                return;
            }
            else
            {
                fallbackModels.add(model);
            }
        }
        final TraceSetting next = new TraceSetting(timestamps, tensors, rate, count, frequency, file,
            levelSpecified, rateSpecified, countSpecified, frequencySpecified, fileSpecified);
        if (!next.off() && next.invalidReason() != null)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "Attempting to set invalid trace setting :"
                + next.invalidReason());
        }
        final TraceSetting previous;
        if (model.isEmpty())
        {
            previous = global;
            global = next;
        }
        else
        {
            previous = models.put(model, next);
            anyModel = true;
        }
        if (previous != null)
        {
            writer.retire(previous);
        }
    }

    /**
     * The setting in force for a model, as Triton's trace-setting response lists it.
     *
     * @param model the model, or {@code ""} for the global setting
     * @return {@code trace_level} (a list), {@code trace_rate}, {@code trace_count}, {@code log_frequency},
     *         {@code trace_file}, {@code trace_mode}, in that order
     */
    public Map<String, Object> setting(final String model)
    {
        final TraceSetting own = model.isEmpty() ? null : models.get(model);
        final TraceSetting setting = own != null ? own : global;
        final Map<String, Object> result = new LinkedHashMap<>();
        result.put("trace_level", setting.levelNames());
        result.put("trace_rate", Long.toString(setting.rate));
        result.put("trace_count", Integer.toString(setting.remaining()));
        result.put("log_frequency", Long.toString(setting.logFrequency));
        result.put("trace_file", setting.file);
        result.put("trace_mode", "triton");
        return result;
    }

    /**
     * Waits until every trace completed so far is written (files flushed). For tests and orderly shutdown.
     *
     * @throws InterruptedException when interrupted
     */
    public void flush() throws InterruptedException
    {
        writer.flush();
    }

    /** Writes out what is buffered, closes the trace files and stops the writer thread. */
    @Override
    public void close()
    {
        writer.close();
    }
}
