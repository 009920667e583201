package io.ingot.dispatch;

import io.ingot.agent.Agent;
import io.ingot.agent.Bell;
import io.ingot.scheduler.BatchPolicy;
import io.ingot.scheduler.EndedRequests;
import io.ingot.time.NanoClock;

import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The core's one thread for what must happen on time while every instance of a model is busy: it answers queue
 * timeouts under REJECT policies at their deadlines (Triton sweeps every 500 ms; this sweeps at the deadline) and
 * cancellations as they come, by taking a model's batching role for a short sweep when nobody holds it. When an
 * instance is idle it watches its model itself, and the timekeeper stays asleep: with no timeouts and no
 * cancellations it never wakes.
 *
 * <p>An {@link Agent}; its schedulers register and unregister from any thread.
 */
public final class Timekeeper implements Agent
{
    private final CopyOnWriteArrayList<Registration> schedulers = new CopyOnWriteArrayList<>();
    private final Bell bell;
    private final NanoClock clock;
    private final EndedRequests ended = new EndedRequests();
    private volatile boolean done;

    /** A scheduler and who answers what its sweeps end. */
    private record Registration(ModelScheduler scheduler, EndedAnswerer answerer)
    {
    }

    /**
     * @param bell  the bell this timekeeper's thread sleeps on (its idle strategy's)
     * @param clock the core's clock, the one its schedulers run on
     */
    public Timekeeper(final Bell bell, final NanoClock clock)
    {
        this.bell = bell;
        this.clock = clock;
    }

    /**
     * @param scheduler a model version's scheduler
     * @param answerer  answers the requests its sweeps end
     */
    public void register(final ModelScheduler scheduler, final EndedAnswerer answerer)
    {
        schedulers.add(new Registration(scheduler, answerer));
        wake();
    }

    /**
     * @param scheduler a scheduler that stopped
     */
    public void unregister(final ModelScheduler scheduler)
    {
        schedulers.removeIf(registration -> registration.scheduler() == scheduler);
    }

    /** Wakes the timekeeper if it sleeps (any thread). */
    public void wake()
    {
        bell.ring();
    }

    /** Ends the timekeeper's duty (the core is closing). */
    public void close()
    {
        done = true;
        bell.ring();
    }

    @Override
    public int doWork()
    {
        int work = 0;
        for (final Registration registration : schedulers)
        {
            final ModelScheduler scheduler = registration.scheduler();
            if (!scheduler.needsSweep(clock.nanoTime()))
            {
                continue;
            }
            if (!scheduler.tryAcquireRole(ModelScheduler.TIMEKEEPER))
            {
                if (scheduler.roleHolder() > 0)
                {
                    // An instance leads: it keeps the model's time until it dispatches and calls again.
                    scheduler.standDown();
                }
                else
                {
                    work++;  // a producer drains a full ring for a moment: try again at once
                }
                continue;
            }
            try
            {
                scheduler.sweep(ended);
            }
            finally
            {
                scheduler.releaseAfterSweep();
            }
            if (ended.count() > 0)
            {
                work += ended.count();
                registration.answerer().answer(ended);
                ended.clear();
            }
        }
        return work;
    }

    @Override
    public long wakeDeadlineNs()
    {
        long earliest = BatchPolicy.NO_DEADLINE;
        for (final Registration registration : schedulers)
        {
            earliest = Math.min(earliest, registration.scheduler().timekeeperWakeNs());
        }
        return earliest;
    }

    /** @return whether a sweep is due now: asked after the bell is armed, before sleeping */
    public boolean hasDueWork()
    {
        if (done)
        {
            return true;
        }
        for (final Registration registration : schedulers)
        {
            final ModelScheduler scheduler = registration.scheduler();
            if (scheduler.needsSweep(clock.nanoTime()) && scheduler.isRoleFree())
            {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean isDone()
    {
        return done;
    }

    @Override
    public String roleName()
    {
        return "ingot-timekeeper";
    }
}
