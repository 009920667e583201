package io.ingot.server.http;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory every HTTP request body of the server may hold at once, received or decompressed: a body reserves
 * capacity as its bytes arrive (never from what {@code Content-Length} declares) and gives it back when its last
 * holder releases it. When the budget is spent, new bodies are refused with 503 and the server keeps answering
 * the requests it holds, instead of running out of memory. Thread-safe and lock-free.
 */
public final class RequestBodyBudget
{
    /** The setting that sizes the budget, named in the 503's message. */
    public static final String SETTING = "http-body-memory-bytes";

    private final long limit;
    private final AtomicLong held = new AtomicLong();

    /**
     * @param limit bytes all bodies may hold at once, &gt; 0
     */
    public RequestBodyBudget(final long limit)
    {
        if (limit <= 0)
        {
            throw new IllegalArgumentException("the request body budget must be positive, was " + limit);
        }
        this.limit = limit;
    }

    /**
     * @param bytes more bytes a body needs
     * @return true when they were reserved; false when the budget cannot hold them
     */
    public boolean tryReserve(final long bytes)
    {
        while (true)
        {
            final long current = held.get();
            if (bytes > limit - current)
            {
                return false;
            }
            if (held.compareAndSet(current, current + bytes))
            {
                return true;
            }
        }
    }

    /**
     * @param bytes bytes a body reserved and no longer holds
     */
    public void release(final long bytes)
    {
        held.addAndGet(-bytes);
    }

    /** @return the bytes bodies hold now */
    public long held()
    {
        return held.get();
    }

    /** @return the bytes all bodies may hold at once */
    public long limit()
    {
        return limit;
    }

    /**
     * @param needed what the refused body needed
     * @return the 503 (UNAVAILABLE) to answer a body the budget cannot hold
     */
    public InferenceException exhausted(final long needed)
    {
        return new InferenceException(ErrorCode.UNAVAILABLE, "Server is out of memory for request bodies: "
            + held() + " of " + limit + " bytes are held by requests being received or served, and this one "
            + "needs " + needed + " more; retry later (the limit is --frontend-setting " + SETTING + ")");
    }
}
