package io.ingot.agent;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one {@link Agent} on a platform thread of its own: {@code doWork()}, then the {@link IdleStrategy} with the
 * time left until the agent's {@link Agent#wakeDeadlineNs() deadline}, until the agent {@link Agent#isDone() is done}.
 * A pass that throws is logged (at most once a second per runner, so a failing pass cannot flood the log) and the
 * loop goes on after a millisecond's pause. Thread-safe: {@link #start()} and {@link #join()} from any thread.
 */
public final class AgentRunner
{
    private static final Logger LOG = System.getLogger(AgentRunner.class.getName());
    private static final long LOG_INTERVAL_NANOS = 1_000_000_000L;

    private final Agent agent;
    private final IdleStrategy idle;
    private final Thread thread;
    private long lastLogged;

    /**
     * @param agent  the duty
     * @param idle   what its thread does while there is no work
     * @param daemon whether the thread may outlive the application's own
     */
    public AgentRunner(final Agent agent, final IdleStrategy idle, final boolean daemon)
    {
        this(agent, idle, daemon, Thread.ofPlatform().factory());
    }

    /**
     * @param agent   the duty
     * @param idle    what its thread does while there is no work
     * @param daemon  whether the thread may outlive the application's own
     * @param threads makes the (platform) thread, unstarted: a subclass that carries per-thread state of the agent's
     *                own, for instance; the runner names it after the agent's role
     */
    public AgentRunner(final Agent agent, final IdleStrategy idle, final boolean daemon, final ThreadFactory threads)
    {
        this.agent = agent;
        this.idle = idle;
        this.thread = threads.newThread(this::run);
        thread.setName(agent.roleName());
        thread.setDaemon(daemon);
    }

    /** Starts the agent's thread. */
    public void start()
    {
        thread.start();
    }

    /** @return the agent's thread */
    public Thread thread()
    {
        return thread;
    }

    /** @return the idle strategy (for its sleep counts) */
    public IdleStrategy idleStrategy()
    {
        return idle;
    }

    /** Waits for the agent's thread to end; an interrupt is remembered and re-raised after the wait. */
    public void join()
    {
        boolean interrupted = false;
        while (thread.isAlive())
        {
            try
            {
                thread.join();
            }
            catch (final InterruptedException ex)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void run()
    {
        try
        {
            while (!agent.isDone())
            {
                int work;
                try
                {
                    work = agent.doWork();
                }
                catch (final Exception | Error ex)
                {
                    report(ex);
                    LockSupport.parkNanos(1_000_000L);
                    work = 1;
                }
                if (work <= 0)
                {
                    final long deadline = agent.wakeDeadlineNs();
                    final long maxSleep = deadline == Agent.NO_DEADLINE ? Long.MAX_VALUE
                        : Math.max(1_000L, deadline - System.nanoTime());
                    idle.idle(work, maxSleep);
                }
                else
                {
                    idle.reset();
                }
            }
        }
        finally
        {
            agent.onClose();
        }
    }

    private void report(final Throwable failure)
    {
        final long now = System.nanoTime();
        if (lastLogged == 0 || now - lastLogged >= LOG_INTERVAL_NANOS)
        {
            lastLogged = now | 1;
            LOG.log(Level.ERROR, agent.roleName() + " failed a pass; it keeps running", failure);
        }
    }
}
