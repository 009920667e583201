package io.ingot.server.trace;

import java.util.ArrayList;
import java.util.List;

/**
 * One trace setting (global or a model's), as Triton's {@code TraceManager::TraceSetting}: level, rate, count, log
 * frequency, file and mode, which of them were given (a model's unspecified fields follow the global setting), and
 * the sampling counters. Replaced, never changed, by an update, so a trace keeps the setting it was sampled under.
 *
 * <p>Thread-safe: {@link #sample()} is called by every frontend thread while tracing is on; the buffered traces are
 * the writer thread's.
 */
final class TraceSetting
{
    /** Triton's {@code TraceManager::MIN_TRACE_COUNT_VALUE}. */
    static final int MIN_TRACE_COUNT = -1;

    final boolean timestamps;
    final boolean tensors;
    final long rate;
    final int initialCount;
    final long logFrequency;
    final String file;
    final boolean levelSpecified;
    final boolean rateSpecified;
    final boolean countSpecified;
    final boolean logFrequencySpecified;
    final boolean fileSpecified;

    private long sampled;
    private int remaining;
    private long created;

    /** Writer thread only: traces collected and not yet written, and how many are in it. */
    final StringBuilder buffered = new StringBuilder();
    int bufferedCount;
    long collected;
    boolean retired;

    TraceSetting(final boolean timestamps, final boolean tensors, final long rate, final int count,
        final long logFrequency, final String file, final boolean levelSpecified, final boolean rateSpecified,
        final boolean countSpecified, final boolean logFrequencySpecified, final boolean fileSpecified)
    {
        this.timestamps = timestamps;
        this.tensors = tensors;
        this.rate = rate;
        this.initialCount = count;
        this.remaining = count;
        this.logFrequency = logFrequency;
        this.file = file;
        this.levelSpecified = levelSpecified;
        this.rateSpecified = rateSpecified;
        this.countSpecified = countSpecified;
        this.logFrequencySpecified = logFrequencySpecified;
        this.fileSpecified = fileSpecified;
    }

    /** @return whether the level is OFF */
    boolean off()
    {
        return !timestamps && !tensors;
    }

    /** @return Triton's reason this setting cannot trace, or {@code null} when it can */
    String invalidReason()
    {
        if (off())
        {
            return "tracing is disabled";
        }
        if (rate == 0)
        {
            return "sample rate must be non-zero";
        }
        if (file.isEmpty())
        {
            return "trace file name is not given";
        }
        return null;
    }

    /**
     * Counts one request and decides whether it is traced: every {@code rate}-th request while traces remain.
     *
     * @return whether to trace it
     */
    synchronized boolean sample()
    {
        if (invalidReason() != null || remaining == 0)
        {
            return false;
        }
        sampled++;
        if (sampled % rate != 0)
        {
            return false;
        }
        if (remaining > 0)
        {
            remaining--;
        }
        created++;
        return true;
    }

    /** @return whether the count is used up and every sampled trace was created (writer: then flush) */
    synchronized boolean exhausted()
    {
        return remaining == 0;
    }

    /** @return traces created so far */
    synchronized long created()
    {
        return created;
    }

    /** @return the remaining count, as Triton reports it */
    synchronized int remaining()
    {
        return remaining;
    }

    /** @return the level as Triton's JSON lists it */
    List<String> levelNames()
    {
        final List<String> names = new ArrayList<>();
        if (off())
        {
            names.add("OFF");
        }
        if (timestamps)
        {
            names.add("TIMESTAMPS");
        }
        if (tensors)
        {
            names.add("TENSORS");
        }
        return names;
    }
}
