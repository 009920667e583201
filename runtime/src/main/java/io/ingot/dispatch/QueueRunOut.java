package io.ingot.dispatch;

import io.ingot.ring.RequestRing;
import io.ingot.scheduler.PendingRequest;
import io.ingot.time.NanoClock;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Whether a retiring {@link ModelScheduler}'s queue has run out: a reload replaced its version, new requests are
 * refused, and the version is stopped only once nothing it accepted waits any more (what runs, runs on its instance;
 * the stop lets it finish). The role holder notes the run-out after a drain that left the policy empty
 * ({@link #noteIfRunOut}); the thread that retires the version waits for it ({@link #await}), asking the role's
 * holders to look again now and then, since only a holder sees the queue. Thread-safe: one noting thread at a time
 * (the role holder), any number of waiters.
 */
final class QueueRunOut
{
    /** How often the waiter looks. */
    private static final long POLL_NS = TimeUnit.MICROSECONDS.toNanos(200);
    /** How often the waiter asks the role's holders to look at the queue again. */
    private static final long NUDGE_NS = TimeUnit.MILLISECONDS.toNanos(20);

    private final RequestRing<PendingRequest> ring;
    private final NanoClock clock;
    /** Set once, by a role holder, when every claimed slot was drained and the policy held nothing. */
    private volatile boolean runOut;

    /**
     * @param ring  the scheduler's intake ring
     * @param clock the scheduler's clock
     */
    QueueRunOut(final RequestRing<PendingRequest> ring, final NanoClock clock)
    {
        this.ring = ring;
        this.clock = clock;
    }

    /**
     * Role holder, retiring, with nothing left in the policy: when every claimed slot of the ring was drained too,
     * nothing accepted waits any more.
     */
    void noteIfRunOut()
    {
        if (!runOut && ring.drained() == ring.claimed())
        {
            runOut = true;
        }
    }

    /**
     * Waits until the queue has run out, or until the time is up.
     *
     * @param timeoutNs the longest wait
     * @param nudge     asks the watcher, a follower or the timekeeper to look at the queue (again)
     * @return whether the queue ran out in time
     */
    boolean await(final long timeoutNs, final Runnable nudge)
    {
        final long deadline = clock.nanoTime() + timeoutNs;
        long nextNudge = 0;
        while (!runOut)
        {
            final long now = clock.nanoTime();
            if (now - deadline >= 0)
            {
                return false;
            }
            if (now - nextNudge >= 0)
            {
                // The queue's state is seen only by whoever holds the role: ask one of them to look, in case nothing
                // else brings one of them back.
                nudge.run();
                nextNudge = now + NUDGE_NS;
            }
            LockSupport.parkNanos(POLL_NS);
        }
        return true;
    }
}
