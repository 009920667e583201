package io.ingot.api;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * A reusable future for one request at a time: submit with it as the listener, {@link #await()} the response, close
 * the response, {@link #reset()}, submit again. Unlike a {@code CompletableFuture} (which {@link
 * InferenceCore#submit(InferenceRequest)} returns, one per call), it allocates nothing per request.
 *
 * <pre>{@code
 * ResponseFuture future = new ResponseFuture();
 * while (running)
 * {
 *     future.reset();
 *     core.submit(request, future);
 *     try (InferenceResponse response = future.await().throwIfError())
 *     {
 *         ...
 *     }
 * }
 * }</pre>
 *
 * <p>Waiting: for {@link #spinNanos()} (by default {@value #DEFAULT_SPIN_NANOS} ns) the caller stays awake — it spins
 * for the first {@value #SPIN_BEFORE_YIELD_NANOS} ns, then yields the processor between looks, so that on a shared
 * core the thread computing its response can run — and a response that comes back within that time costs no wake-up
 * at all; then it parks. {@code Long.MAX_VALUE} spins without yielding and never parks. The thread that delivers the
 * response unparks the caller only if it parked, so a caller costs at most one wake-up per response, and a waking
 * caller none ({@link ParkingWaiter}).
 *
 * <p>Threads: one caller awaits; the core completes it from one of its threads. {@link #reset()} only while no
 * request is in flight with it.
 */
public final class ResponseFuture implements ResponseListener
{
    /** How long {@link #await()} stays awake before it parks, by default. */
    public static final long DEFAULT_SPIN_NANOS = 20_000L;
    /** How long a finite wait spins before it yields between looks. */
    public static final long SPIN_BEFORE_YIELD_NANOS = 1_000L;

    private final long spinNanos;
    private final ParkingWaiter parking = new ParkingWaiter();
    private volatile InferenceResponse response;

    /** A future that spins {@value #DEFAULT_SPIN_NANOS} ns before it parks. */
    public ResponseFuture()
    {
        this(DEFAULT_SPIN_NANOS);
    }

    /**
     * @param spinNanos how long {@link #await()} spins before it parks: 0 parks at once, {@link Long#MAX_VALUE} never
     *                  parks (busy-waits, one core)
     */
    public ResponseFuture(final long spinNanos)
    {
        if (spinNanos < 0)
        {
            throw new IllegalArgumentException("spin time must be >= 0 ns, was " + spinNanos);
        }
        this.spinNanos = spinNanos;
    }

    /** @return how long {@link #await()} spins before it parks */
    public long spinNanos()
    {
        return spinNanos;
    }

    /** Called by the core with the response; wakes the caller if it parked. */
    @Override
    public void onResponse(final InferenceResponse delivered)
    {
        response = delivered;
        parking.wake();
    }

    /**
     * Waits for the response.
     *
     * @return the response (its owner is now the caller, who closes it)
     */
    public InferenceResponse await()
    {
        final InferenceResponse ready = spinFor(spinNanos);
        if (ready != null)
        {
            return ready;
        }
        parking.announce();
        InferenceResponse arrived;
        while ((arrived = response) == null)
        {
            LockSupport.park(this);
        }
        parking.withdraw();
        return arrived;
    }

    /**
     * Waits for the response, at most {@code timeout}.
     *
     * @param timeout the longest wait
     * @return the response, or {@code null} when none arrived in time (the request stays in flight)
     */
    public InferenceResponse await(final Duration timeout)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        final InferenceResponse ready = spinFor(Math.min(spinNanos, timeout.toNanos()));
        if (ready != null)
        {
            return ready;
        }
        parking.announce();
        InferenceResponse arrived;
        try
        {
            while ((arrived = response) == null)
            {
                final long left = deadline - System.nanoTime();
                if (left <= 0)
                {
                    return null;
                }
                LockSupport.parkNanos(this, left);
            }
        }
        finally
        {
            parking.withdraw();
        }
        return arrived;
    }

    /** @return whether the response has arrived */
    public boolean isDone()
    {
        return response != null;
    }

    /** Forgets the last response, before the next submission with this future. */
    public void reset()
    {
        response = null;
    }

    /**
     * One look of a wait that stays awake for {@code awakeNanos} before it parks, the waiting of {@link #await()}:
     * spins for the first {@value #SPIN_BEFORE_YIELD_NANOS} ns, then yields the processor; {@code Long.MAX_VALUE}
     * spins for ever. For waiters that must wait exactly as a {@code ResponseFuture} does (benchmark callers).
     *
     * @param startNanos  {@link System#nanoTime()} when the wait began
     * @param awakeNanos  how long the wait stays awake
     * @return false when the time to stay awake is over and the waiter should park
     */
    public static boolean stayAwake(final long startNanos, final long awakeNanos)
    {
        if (awakeNanos == Long.MAX_VALUE)
        {
            Thread.onSpinWait();
            return true;
        }
        final long waited = System.nanoTime() - startNanos;
        if (waited >= awakeNanos)
        {
            return false;
        }
        if (waited >= SPIN_BEFORE_YIELD_NANOS)
        {
            Thread.yield();
        }
        else
        {
            Thread.onSpinWait();
        }
        return true;
    }

    private InferenceResponse spinFor(final long nanos)
    {
        InferenceResponse ready = response;
        if (ready != null || nanos == 0)
        {
            return ready;
        }
        final long start = System.nanoTime();
        while ((ready = response) == null)
        {
            if (!stayAwake(start, nanos))
            {
                return null;
            }
        }
        return ready;
    }
}
