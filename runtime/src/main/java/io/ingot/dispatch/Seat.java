package io.ingot.dispatch;

import io.ingot.agent.ThreadBell;

/**
 * An instance's place at its model's scheduler: the bell it sleeps on while idle, and whether it is following —
 * idle, willing to take the batching role, asleep or about to be. The scheduler reads seats to hand the role on; the
 * owning instance writes its own. Thread-safe.
 */
public final class Seat
{
    private final ThreadBell bell = new ThreadBell();
    private volatile boolean following;

    /** @return the bell the instance sleeps on */
    public ThreadBell bell()
    {
        return bell;
    }

    /** @return whether the instance is idle and willing to lead */
    public boolean isFollowing()
    {
        return following;
    }

    /**
     * @param following whether the instance is idle and willing to lead (its own thread only)
     */
    public void following(final boolean following)
    {
        this.following = following;
    }
}
