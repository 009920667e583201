package io.ingot.agent;

/**
 * Where one thread may sleep until another rings, without losing a ring that comes between its last look for work
 * and its sleep. The waiter {@link #arm() arms}, looks for work once more, and only if there is none
 * {@link #sleep sleeps}; then it {@link #disarm() disarms}. A waker publishes its work and then {@link #ring() rings}.
 * Both sides put a full fence between their store (the armed flag; the work) and their load (the work; the flag), so
 * at least one of them sees the other's: either the waiter finds the work, or the waker finds the flag and wakes it,
 * and a sleep after a ring returns at once.
 *
 * <p>One waiter at a time; any number of wakers, on any thread. A waker that finds the bell disarmed does no system
 * call: a thread that is known to be awake is never signalled.
 */
public interface Bell
{
    /**
     * Says the calling thread may sleep. Look for work once more after this and before {@link #sleep}.
     *
     * @return a token to pass to {@link #sleep}
     */
    int arm();

    /**
     * Sleeps until a ring since {@link #arm()}, at most {@code maxNanos}. May return early.
     *
     * @param token    what {@link #arm()} returned
     * @param maxNanos the longest sleep, &gt; 0 ({@link Long#MAX_VALUE}: until rung)
     * @return whether a waker rang
     */
    boolean sleep(int token, long maxNanos);

    /** Says the waiter is awake again: wakers stop making system calls. */
    void disarm();

    /**
     * Wakes the waiter if it may be sleeping. Call after publishing work.
     *
     * @return whether the waiter was armed (and so was woken)
     */
    boolean ring();
}
