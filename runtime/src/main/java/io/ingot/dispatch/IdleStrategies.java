package io.ingot.dispatch;

import io.ingot.agent.BackoffIdleStrategy;
import io.ingot.agent.Bell;
import io.ingot.agent.IdleStrategy;
import io.ingot.agent.SpinningIdleStrategy;
import io.ingot.api.IdleMode;

import java.util.function.BooleanSupplier;

/**
 * What {@link IdleMode} means for a thread that serves callers: the mapping from the mode to an idle strategy for
 * the core's model instances (and the batcher-only benchmark pipeline), so that the mode governs them alike. The
 * shared-memory server (server module, which does not depend on runtime) maps the mode the same way itself.
 * The core's timekeeper is the exception and chooses its own (it never spins without end).
 */
public final class IdleStrategies
{
    private IdleStrategies()
    {
    }

    /**
     * @param mode    the configured idle mode
     * @param bell    where the thread sleeps (unused under SPINNING)
     * @param pending whether work is waiting: asked after arming, before sleeping; must not block
     * @return SPINNING: spin, never sleep; BACKOFF: spin, yield about a millisecond, sleep; BLOCKING: spin 1 µs,
     *     yield until about 20 µs, sleep
     */
    public static IdleStrategy of(final IdleMode mode, final Bell bell, final BooleanSupplier pending)
    {
        return switch (mode)
        {
            case SPINNING -> new SpinningIdleStrategy();
            case BACKOFF -> BackoffIdleStrategy.backoff(bell, pending);
            case BLOCKING -> BackoffIdleStrategy.blocking(bell, pending);
        };
    }
}
