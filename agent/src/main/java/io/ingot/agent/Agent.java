package io.ingot.agent;

/**
 * One Ingot thread's duty, in the manner of Agrona's {@code Agent}: an {@link AgentRunner} calls {@link #doWork()}
 * in a loop and, whenever a pass did no work, hands control to the thread's {@link IdleStrategy}, which may sleep
 * until {@link #wakeDeadlineNs()} or until a waker rings the agent's {@link Bell}. Every thread of the core has this
 * one shape: each model instance's thread and the core's timekeeper.
 *
 * <p>Called only from its runner's thread.
 */
public interface Agent
{
    /** A deadline meaning "sleep until rung". */
    long NO_DEADLINE = Long.MAX_VALUE;

    /**
     * One pass of the duty cycle.
     *
     * @return how much work the pass did; 0 lets the idle strategy wait
     * @throws Exception a failure of the pass; the runner reports it and goes on
     */
    int doWork() throws Exception;

    /**
     * @return the {@link System#nanoTime()} by which the agent must run again even if nobody rings, or
     *         {@link #NO_DEADLINE}
     */
    default long wakeDeadlineNs()
    {
        return NO_DEADLINE;
    }

    /** @return whether the agent's duty is over: the runner then calls {@link #onClose()} and ends its thread */
    boolean isDone();

    /** @return a short name for the thread and for logs */
    String roleName();

    /** Releases what the agent holds, on its own thread, after its last pass. */
    default void onClose()
    {
    }
}
