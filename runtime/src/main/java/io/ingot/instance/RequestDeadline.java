package io.ingot.instance;

import io.ingot.scheduler.PendingRequest;
import io.ingot.time.NanoClock;

/**
 * When a request that reached an engine counts as cancelled for it: the caller cancelled it, or the timeout the caller
 * gave it has passed since it was accepted (Triton's Python backend tells a model so through
 * {@code request.is_cancelled()}; the core itself lets an executing request finish). Stateless.
 */
final class RequestDeadline
{
    private RequestDeadline()
    {
    }

    /**
     * @param pending an accepted request, in flight
     * @param clock   the core's clock (the one that stamped its acceptance)
     * @return whether it was cancelled or its timeout passed
     */
    static boolean passed(final PendingRequest pending, final NanoClock clock)
    {
        if (pending.isCancelled())
        {
            return true;
        }
        final long timeoutMicros = pending.request.timeoutMicros();
        return timeoutMicros > 0 && clock.nanoTime() - pending.acceptedNs > timeoutMicros * 1000;
    }
}
