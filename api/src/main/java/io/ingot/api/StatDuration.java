package io.ingot.api;

/**
 * A count and a total duration, the unit of Triton's statistics extension ({@code {"count": n, "ns": t}}).
 * Immutable.
 *
 * @param count number of events
 * @param ns    their total duration in nanoseconds
 */
public record StatDuration(long count, long ns)
{
    /** The empty duration. */
    public static final StatDuration ZERO = new StatDuration(0, 0);
}
