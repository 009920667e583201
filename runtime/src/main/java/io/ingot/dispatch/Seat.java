package io.ingot.dispatch;

import io.ingot.agent.ThreadBell;

/**
 * An instance's place at its model's scheduler: the bell it sleeps on while idle, whether it is following — idle,
 * willing to take the batching role, asleep or about to be — and whether it has been <em>called</em> to take the
 * role since it last looked. The scheduler reads seats to hand the role on; the owning instance writes its own
 * following flag and clears its call.
 *
 * <p>Why a call is more than a ring: a ring on a bell that is not armed changes nothing, because its owner is awake
 * and will look for work itself. But what the owner looks at before it sleeps may not show the work it is called
 * for — work the caller has already drained into its model's policy, queued for this instance's sequence slots.
 * The call stays set until the owner's next pass, and the owner asks for it after arming its bell, so a call is
 * never lost (the {@link io.ingot.agent.Bell} protocol: the caller's store, a fence, its look at {@code armed};
 * the owner's arm, a fence, its look at the call).
 *
 * <p><b>Fields.</b> The two flags, {@code following} and {@code called} (volatile), are declared in {@link SeatFields}
 * on a cache line of their own; the bell is the one final field below. Thread-safe.
 */
public final class Seat extends SeatFields.PadAfter
{
    private final ThreadBell bell = new ThreadBell();

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
        // Stored only on a change: the store is volatile (a fence), and the line is one every producer reads.
        if (this.following != following)
        {
            this.following = following;
        }
    }

    /**
     * Calls the instance to take the role and look for work (any thread): marks the call, then rings its bell.
     */
    public void call()
    {
        if (!called)
        {
            called = true;
        }
        bell.ring();
    }

    /** @return whether a call came since the owner last {@link #answerCall() answered} one */
    public boolean isCalled()
    {
        return called;
    }

    /** Owner, before it looks for work: the call is answered by the look that follows. */
    public void answerCall()
    {
        if (called)
        {
            called = false;
        }
    }
}
