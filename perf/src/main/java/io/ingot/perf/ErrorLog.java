package io.ingot.perf;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Failed requests of a run: a count per measurement window, and the first few distinct messages for the report.
 * Thread-safe; recording allocates nothing once a message is known.
 */
final class ErrorLog
{
    private final LongAdder count = new LongAdder();
    private final AtomicReference<String> first = new AtomicReference<>();

    /**
     * @param message what went wrong with one request
     */
    void record(final String message)
    {
        count.increment();
        if (first.get() == null)
        {
            first.compareAndSet(null, message == null ? "unknown error" : message);
        }
    }

    /** @return the failures since the previous call, resetting the count. */
    long takeCount()
    {
        return count.sumThenReset();
    }

    /** @return the first failure's message, or {@code null} when nothing failed. */
    String firstMessage()
    {
        return first.get();
    }
}
