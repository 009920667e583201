package io.ingot.core;

import io.ingot.dispatch.ModelScheduler;

/**
 * The cancel hook a model version gives every flight of its requests ({@code RequestLifecycle.begin}): a cancellation
 * asks the version's scheduler for the sweep that finds the cancelled request. A request keeps its last flight's hook
 * after the flight ends (so that the next flight of the same model writes no hook), and an application may keep a
 * request long after the version stopped: the hook forgets the scheduler at the stop, and a kept request then holds
 * this small object only, not the stopped version's scheduler and its queues.
 *
 * <p>Thread-safe: any thread cancels; the stopping thread forgets.
 */
final class CancelSweep implements Runnable
{
    private volatile ModelScheduler scheduler;

    /** @param scheduler the version's scheduler */
    CancelSweep(final ModelScheduler scheduler)
    {
        this.scheduler = scheduler;
    }

    @Override
    public void run()
    {
        final ModelScheduler current = scheduler;
        if (current != null)
        {
            current.requestSweep();
        }
    }

    /** The version stopped: a later cancel asks no one (its request is no longer in flight here). */
    void forget()
    {
        scheduler = null;
    }
}
