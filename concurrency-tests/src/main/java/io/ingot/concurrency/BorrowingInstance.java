package io.ingot.concurrency;

import io.ingot.dispatch.InstanceDuty;
import io.ingot.dispatch.ModelScheduler;
import io.ingot.dispatch.Seat;
import io.ingot.scheduler.BatchPolicy;
import io.ingot.scheduler.EndedRequests;
import io.ingot.scheduler.FormedBatch;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Instance 0 of a {@link SchedulerHarness} as a borrower runs it: the order of {@code InstanceAgent.runBorrowed}
 * (take the role as the instance, decide; on a dispatch hand the role off, "execute" — count the batch's requests —
 * and become the watcher again unless work is left or the model stops; anything else goes back to the instance's
 * thread) and of {@code InstanceAgent.hasWork} (nothing while borrowed). Counts overlapping steps, which the run token
 * must make impossible.
 */
final class BorrowingInstance implements InstanceDuty
{
    final SchedulerHarness harness;
    final Seat seat;
    /** Requests executed by borrowed steps. */
    int executed;
    /** Steps running now; more than one at a time is a broken token. */
    final AtomicInteger running = new AtomicInteger();
    volatile boolean overlapped;
    private final FormedBatch batch = new FormedBatch(4);
    private final EndedRequests ended = new EndedRequests();

    BorrowingInstance(final SchedulerHarness harness)
    {
        this.harness = harness;
        this.seat = harness.seats[0];
        seat.lend(this);
        seat.lastBatchQuick(true);
    }

    /** Enters a step (owner's or borrower's): notes an overlap. */
    void enterStep()
    {
        if (running.incrementAndGet() != 1)
        {
            overlapped = true;
        }
    }

    void leaveStep()
    {
        running.decrementAndGet();
    }

    @Override
    public int runBorrowed()
    {
        enterStep();
        try
        {
            final ModelScheduler scheduler = harness.scheduler;
            if (scheduler.isStopping() || !scheduler.tryAcquireRole(1))
            {
                return NOT_LEADING;
            }
            final int status = scheduler.decide(0, batch, ended);
            if (status == BatchPolicy.DISPATCH)
            {
                scheduler.handOff(1);
                executed += batch.count();
                batch.clear();
                if (!scheduler.tryAcquireRole(1))
                {
                    return HANDED_BACK;
                }
                if (scheduler.hasQueued() || scheduler.isStopping())
                {
                    scheduler.releaseRole(1);
                    return HANDED_BACK;
                }
                scheduler.watch(seat.bell());
                return RAN;
            }
            scheduler.releaseRole(1);
            return HANDED_BACK;
        }
        finally
        {
            leaveStep();
        }
    }

    @Override
    public boolean hasWork()
    {
        if (seat.isBorrowed())
        {
            return false;
        }
        final ModelScheduler scheduler = harness.scheduler;
        if (seat.isCalled())
        {
            return true;
        }
        if (scheduler.holdsRole(1))
        {
            return scheduler.hasNews();
        }
        return scheduler.isStopping() || scheduler.isRoleFree();
    }
}
