package io.ingot.server.trace;

import com.google.gson.JsonPrimitive;
import io.ingot.api.RequestTrace;

import java.io.IOException;
import java.io.Writer;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes completed traces in Triton's JSON trace format, on its own single thread, off every request's path. A
 * trace is a run of objects with its id: its timestamps, each as {@code {"id":N,"timestamps":[{"name":...,"ns":...}]}},
 * with {@code {"id":N,"model_name":...,"model_version":...[,"request_id":...]}} before REQUEST_START, as Triton's
 * tracer writes them. The files follow Triton's rules: with {@code log_frequency} N, every N traces go to
 * {@code <trace_file>.<index>} as one JSON array; when {@code trace_count} is used up, what was collected goes to the
 * next indexed file; otherwise traces go to {@code <trace_file>}, one JSON array closed when the writer closes.
 *
 * <p>Bounded: at most {@link #QUEUE_CAPACITY} traces wait; a trace that finds the queue full is dropped and counted
 * (logged every 1000 drops). A setting with {@code log_frequency 0} writes through to its file every
 * {@link #FLUSH_EVERY} traces rather than holding them all until shutdown, as Triton does. Thread-safe.
 */
final class TraceWriter implements AutoCloseable
{
    static final int QUEUE_CAPACITY = 4096;
    static final int FLUSH_EVERY = 256;

    private static final Logger LOG = System.getLogger(TraceWriter.class.getName());
    private static final Object STOP = new Object();

    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final AtomicLong dropped = new AtomicLong();
    private final Map<String, MainFile> mainFiles = new HashMap<>();
    private final Map<String, Integer> nextIndex = new HashMap<>();
    private final Map<TraceSetting, Boolean> open = new HashMap<>();
    private final Thread thread;

    TraceWriter()
    {
        thread = Thread.ofPlatform().daemon().name("ingot-trace-writer").start(this::loop);
    }

    /** Queues a completed trace; drops it when the queue is full. Any thread. */
    void submit(final ServerTrace trace)
    {
        if (!queue.offer(trace))
        {
            final long drops = dropped.incrementAndGet();
            if (drops % 1000 == 1)
            {
                LOG.log(Level.WARNING, "trace writer is behind: " + drops + " traces dropped so far");
            }
        }
    }

    /** Asks the writer to write out what a replaced setting still holds, once its traces arrived. */
    void retire(final TraceSetting setting)
    {
        try
        {
            queue.put(new Retired(setting));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until every trace queued before this call is written. Test and shutdown use. */
    void flush() throws InterruptedException
    {
        final java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        queue.put(done);
        done.await(30, TimeUnit.SECONDS);
    }

    /** Writes out every setting's buffered traces, closes the files (their JSON arrays) and ends the thread. */
    @Override
    public void close()
    {
        try
        {
            queue.put(STOP);
            thread.join(30_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private record Retired(TraceSetting setting)
    {
    }

    private void loop()
    {
        while (true)
        {
            final Object item;
            try
            {
                item = queue.take();
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            try
            {
                if (item == STOP)
                {
                    for (final TraceSetting setting : open.keySet())
                    {
                        saveRemainder(setting);
                    }
                    open.clear();
                    for (final MainFile file : mainFiles.values())
                    {
                        file.close();
                    }
                    mainFiles.clear();
                    return;
                }
                switch (item)
                {
                    case ServerTrace trace -> collect(trace);
                    case Retired retired ->
                    {
                        retired.setting().retired = true;
                        saveRemainder(retired.setting());
                        open.remove(retired.setting());
                    }
                    case java.util.concurrent.CountDownLatch latch ->
                    {
                        for (final MainFile file : mainFiles.values())
                        {
                            file.out.flush();
                        }
                        latch.countDown();
                    }
                    default -> throw new IllegalStateException("unexpected " + item);
                }
            }
            catch (final IOException | RuntimeException ex)
            {
                LOG.log(Level.ERROR, "failed creating trace file: " + ex.getMessage(), ex);
            }
        }
    }

    private void collect(final ServerTrace trace) throws IOException
    {
        final TraceSetting setting = trace.setting;
        if (setting.bufferedCount > 0)
        {
            setting.buffered.append(',');
        }
        append(setting.buffered, trace);
        setting.bufferedCount++;
        setting.collected++;
        open.put(setting, Boolean.TRUE);
        if (setting.retired)
        {
            saveRemainder(setting);
        }
        else if (setting.exhausted() && setting.collected == setting.created()
            || setting.logFrequency != 0 && setting.bufferedCount >= setting.logFrequency)
        {
            saveIndexed(setting);
        }
        else if (setting.logFrequency == 0 && setting.bufferedCount >= FLUSH_EVERY)
        {
            saveMain(setting);
        }
    }

    private void saveRemainder(final TraceSetting setting) throws IOException
    {
        if (setting.bufferedCount == 0)
        {
            return;
        }
        if (setting.logFrequency != 0)
        {
            saveIndexed(setting);
        }
        else
        {
            saveMain(setting);
        }
    }

    private void saveIndexed(final TraceSetting setting) throws IOException
    {
        final int index = nextIndex.merge(setting.file, 1, Integer::sum) - 1;
        final Path path = Path.of(setting.file + "." + index);
        Files.writeString(path, "[" + setting.buffered + "]", StandardCharsets.UTF_8);
        reset(setting);
    }

    private void saveMain(final TraceSetting setting) throws IOException
    {
        final MainFile file = mainFiles.computeIfAbsent(setting.file, MainFile::new);
        file.write(setting.buffered);
        reset(setting);
    }

    private static void reset(final TraceSetting setting)
    {
        setting.buffered.setLength(0);
        setting.bufferedCount = 0;
    }

    /** Appends one trace's objects in Triton's order. */
    static void append(final StringBuilder out, final ServerTrace trace)
    {
        final RequestTrace core = trace.core();
        boolean first = true;
        first = timestamp(out, trace.id, trace.frontend.receiveStart, trace.recvStartNs, first);
        first = timestamp(out, trace.id, trace.frontend.receiveEnd, trace.recvEndNs, first);
        if (core.requestStartNs() != 0)
        {
            if (!first)
            {
                out.append(',');
            }
            out.append("{\"id\":").append(trace.id).append(",\"model_name\":")
                .append(new JsonPrimitive(trace.model)).append(",\"model_version\":").append(trace.version);
            if (!trace.requestId.isEmpty())
            {
                out.append(",\"request_id\":").append(new JsonPrimitive(trace.requestId));
            }
            out.append('}');
            first = false;
        }
        first = timestamp(out, trace.id, "REQUEST_START", core.requestStartNs(), first);
        first = timestamp(out, trace.id, "QUEUE_START", core.queueStartNs(), first);
        // Triton reports the response's completion before the compute times, which the backend reports last.
        first = timestamp(out, trace.id, "INFER_RESPONSE_COMPLETE", core.computeEndNs(), first);
        first = timestamp(out, trace.id, "COMPUTE_START", core.computeStartNs(), first);
        first = timestamp(out, trace.id, "COMPUTE_INPUT_END", core.computeInputEndNs(), first);
        first = timestamp(out, trace.id, "COMPUTE_OUTPUT_START", core.computeOutputStartNs(), first);
        first = timestamp(out, trace.id, "COMPUTE_END", core.computeEndNs(), first);
        first = timestamp(out, trace.id, "REQUEST_END", core.requestEndNs(), first);
        first = timestamp(out, trace.id, trace.frontend.sendStart, trace.sendStartNs, first);
        timestamp(out, trace.id, trace.frontend.sendEnd, trace.sendEndNs, first);
    }

    private static boolean timestamp(final StringBuilder out, final long id, final String name, final long ns,
        final boolean first)
    {
        if (ns == 0)
        {
            return first;
        }
        if (!first)
        {
            out.append(',');
        }
        out.append("{\"id\":").append(id).append(",\"timestamps\":[{\"name\":\"").append(name).append("\",\"ns\":")
            .append(ns).append("}]}");
        return false;
    }

    /** {@code <trace_file>}: one JSON array, opened at its first trace, closed with the writer. */
    private static final class MainFile
    {
        private final Writer out;
        private boolean first = true;

        MainFile(final String name)
        {
            try
            {
                out = Files.newBufferedWriter(Path.of(name), StandardCharsets.UTF_8);
            }
            catch (final IOException ex)
            {
                throw new java.io.UncheckedIOException(ex);
            }
        }

        void write(final CharSequence traces) throws IOException
        {
            out.write(first ? "[" : ",");
            first = false;
            out.append(traces);
        }

        void close() throws IOException
        {
            if (!first)
            {
                out.write("]");
            }
            out.close();
        }
    }
}
