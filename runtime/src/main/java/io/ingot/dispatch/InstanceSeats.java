package io.ingot.dispatch;

/**
 * The {@link Seat}s of one model version's instances, by index, as its {@link ModelScheduler} calls them: one
 * following instance to take the batching role, a given one a sequence policy yields to, or all of them at the stop.
 * Set once, before any request (the instances' threads start after, which publishes the array to them); read by any
 * thread. Thread-safe as {@link Seat} is.
 */
final class InstanceSeats
{
    private Seat[] seats = new Seat[0];

    /**
     * @param instanceSeats one per instance, by index (copied)
     */
    void set(final Seat[] instanceSeats)
    {
        this.seats = instanceSeats.clone();
    }

    /** @return whether a following instance was found and called: it will take the role */
    boolean callFollower()
    {
        for (final Seat seat : seats)
        {
            if (seat.isFollowing())
            {
                seat.call();
                return true;
            }
        }
        return false;
    }

    /**
     * @param instance the index of the instance to call, following or not
     */
    void call(final int instance)
    {
        seats[instance].call();
    }

    /** Rings every instance's bell (the stop: each looks at the scheduler again). */
    void ringAll()
    {
        for (final Seat seat : seats)
        {
            seat.bell().ring();
        }
    }

    /**
     * Borrows the idle instance a submission would wake: the role's holder when an instance holds it (the watcher),
     * else, when the role is free, a following instance. Nothing when the role is held otherwise (the timekeeper, a
     * producer, the stop) or every instance is busy: the submission then takes the ordinary hand-off.
     *
     * @param roleHolder the role's holder as just read ({@link ModelScheduler#roleHolder()})
     * @return the borrowed seat (the caller holds its token), or {@code null}
     */
    Seat borrowIdle(final int roleHolder)
    {
        if (roleHolder > 0)
        {
            final Seat watcher = seats[roleHolder - 1];
            return watcher.tryBorrow() ? watcher : null;
        }
        if (roleHolder == ModelScheduler.FREE)
        {
            for (final Seat seat : seats)
            {
                if (seat.isFollowing() && seat.tryBorrow())
                {
                    return seat;
                }
            }
        }
        return null;
    }
}
