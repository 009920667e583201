package io.ingot.instance;

import java.util.concurrent.atomic.LongAdder;

/**
 * The bytes the core's instances copied on the host, process-wide, for benchmarks and diagnostics: input bytes
 * assembled into an instance's staging (the requests of a batch of two or more, and heap inputs of an engine that
 * needs native memory), and output bytes copied from an instance's staging into a response's memory after the run
 * (the requests of a batch of two or more whose memory an allocator of their own supplies, and {@code BYTES}
 * outputs). What the engines copy themselves, and a response cache's copies, are not counted. Thread-safe.
 */
public final class HostCopies
{
    private static final LongAdder INPUT_BYTES = new LongAdder();
    private static final LongAdder OUTPUT_BYTES = new LongAdder();

    private HostCopies()
    {
    }

    /** @return the input bytes copied into staging so far */
    public static long inputBytes()
    {
        return INPUT_BYTES.sum();
    }

    /** @return the output bytes copied from staging into responses so far */
    public static long outputBytes()
    {
        return OUTPUT_BYTES.sum();
    }

    static void input(final long bytes)
    {
        INPUT_BYTES.add(bytes);
    }

    static void output(final long bytes)
    {
        OUTPUT_BYTES.add(bytes);
    }
}
