package io.ingot.ratelimit;

import io.ingot.agent.Bell;
import io.ingot.agent.ThreadBell;

import java.util.Comparator;

/**
 * One model instance's place at the core's {@link RateLimiter}: what it holds while it executes, its priority, and
 * whether it may execute now. Its instance thread asks with {@link #tryAcquire()} once its batch is formed; if the
 * answer is no, the instance is <em>staged</em> and the limiter later grants it, sets {@link #isGranted()} and rings
 * its bell; after the batch the thread gives the units back with {@link #release()}.
 *
 * <p>Thread-safe as used: {@link #tryAcquire()}, {@link #release()} and {@link #acquireBlocking()} from the
 * instance's one executing thread at a time (its loader while it warms up, then its instance thread);
 * {@link #isGranted()} from any thread. No call takes a lock other than the limiter's, and none calls user code.
 */
public final class InstanceClaim
{
    /** Triton's staging order: lowest {@code executions × max(priority, 1)} first; then the earliest staged. */
    static final Comparator<InstanceClaim> ORDER = InstanceClaim::compareTurns;

    private final RateLimiter limiter;
    private final String model;
    private final String instance;
    private final long priority;
    private volatile Bell bell = new ThreadBell();
    private volatile boolean granted;
    /** Requests of the formed batch that waits for the grant (owner writes, statistics read). */
    private volatile int waitingRequests;
    // Guarded by the limiter's lock:
    private ResourcePools.Pool[] pools;
    private long[] units;
    private long executions;
    private long stagedAt;
    /** Written under the lock, read without it by the owner's {@link #withdraw()} (volatile: see there). */
    private volatile boolean staged;

    InstanceClaim(final RateLimiter limiter, final String model, final String instance, final int priority)
    {
        this.limiter = limiter;
        this.model = model;
        this.instance = instance;
        this.priority = Math.max(1L, Integer.toUnsignedLong(priority));
    }

    /**
     * Sets the bell the limiter rings when it grants this instance (the instance thread's own, before it starts).
     *
     * @param wakes the bell
     */
    public void wakeWith(final Bell wakes)
    {
        this.bell = wakes;
    }

    /**
     * Asks to execute now (after the batch is formed, before it runs). When the answer is no the instance is staged:
     * it must not execute until {@link #isGranted()}, which the limiter sets before it rings the bell.
     *
     * @return whether the instance holds its resources and may execute now
     */
    public boolean tryAcquire()
    {
        return granted || limiter.stage(this);
    }

    /**
     * Says how many requests the batch waiting for the grant holds (0 once it runs): they count as pending, as
     * Triton counts the rate limiter's wait in {@code nv_inference_pending_request_count}. The owner thread only.
     *
     * @param requests the batch's requests
     */
    public void waitingWith(final int requests)
    {
        waitingRequests = requests;
    }

    /** @return the requests of the batch waiting for the grant (any thread; a racy read, for statistics) */
    public int waitingRequests()
    {
        return waitingRequests;
    }

    /** @return whether the instance is waiting for a grant (the limiter's lock held, or a racy read) */
    public boolean isWaiting()
    {
        return staged;
    }

    /** @return whether the instance holds its resources (and so may execute) */
    public boolean isGranted()
    {
        return granted;
    }

    /**
     * Waits, parked, until the instance holds its resources: for a thread with nothing else to do (a warm-up on the
     * loading thread).
     */
    public void acquireBlocking()
    {
        if (tryAcquire())
        {
            return;
        }
        final Bell waitOn = bell;
        while (!granted)
        {
            final int token = waitOn.arm();
            if (!granted)
            {
                waitOn.sleep(token, Long.MAX_VALUE);
            }
            waitOn.disarm();
        }
    }

    /** Gives the units back after the batch (only while {@link #isGranted()}); counts one execution. */
    public void release()
    {
        limiter.release(this, false);
    }

    /**
     * Gives the units back after the batch and counts one execution; when the model has more work, stages the
     * instance again at once, before anyone is granted, as Triton's {@code OnRelease} does: so its new turn is
     * weighed against those waiting (which is what makes priorities count). A later {@link #tryAcquire()} then finds
     * the instance staged or granted; if it forms no batch it must {@link #withdraw()}.
     *
     * @param moreWork whether requests are queued for the instance's model
     */
    public void release(final boolean moreWork)
    {
        limiter.release(this, moreWork);
    }

    /**
     * Leaves the staged set, or gives back units granted for a batch that was not formed (no execution counted).
     * Does nothing when the instance is neither staged nor granted.
     */
    public void withdraw()
    {
        limiter.withdraw(this);
    }

    /** Leaves the limiter (when the instance stops, after its last batch); its pools' counts are computed again. */
    public void close()
    {
        limiter.unregister(this);
    }

    /** @return the model's name */
    public String model()
    {
        return model;
    }

    /** @return the instance's name */
    public String instance()
    {
        return instance;
    }

    @Override
    public String toString()
    {
        return "InstanceClaim[" + model + "/" + instance + ", priority " + priority + "]";
    }

    // ----- the limiter's side, under its lock -----

    void hold(final ResourcePools.Pool[] heldPools, final long[] heldUnits)
    {
        this.pools = heldPools;
        this.units = heldUnits;
    }

    ResourcePools.Pool[] pools()
    {
        return pools;
    }

    long[] units()
    {
        return units;
    }

    long executions()
    {
        return executions;
    }

    boolean isStaged()
    {
        return staged;
    }

    void staged(final long order)
    {
        staged = true;
        stagedAt = order;
    }

    /** Granted: leaves the staged set, takes its units, and wakes the instance (a bell is not user code). */
    void grant()
    {
        ResourcePools.take(this);
        // Granted before unstaged: the owner reads staged first, so it never sees neither while this runs.
        granted = true;
        staged = false;
        bell.ring();
    }

    /** Executed: gives the units back and counts the execution. */
    void released()
    {
        granted = false;
        ResourcePools.give(this);
        executions++;
    }

    /** Unstaged without a grant. */
    void withdrawn()
    {
        staged = false;
    }

    /** Granted for a batch that was not formed: gives the units back, counting no execution. */
    void returned()
    {
        granted = false;
        ResourcePools.give(this);
    }

    private int compareTurns(final InstanceClaim other)
    {
        // executions × priority can pass 2^63 (a uint32 priority): compare the exact 128-bit products.
        final long high = Math.unsignedMultiplyHigh(executions, priority);
        final long otherHigh = Math.unsignedMultiplyHigh(other.executions, other.priority);
        int order = Long.compareUnsigned(high, otherHigh);
        if (order == 0)
        {
            order = Long.compareUnsigned(executions * priority, other.executions * other.priority);
        }
        return order != 0 ? order : Long.compare(stagedAt, other.stagedAt);
    }
}
