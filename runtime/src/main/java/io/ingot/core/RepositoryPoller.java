package io.ingot.core;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The thread of {@link io.ingot.api.ModelControlMode#POLL}: one daemon thread that runs
 * {@link RepositoryPoll#poll()} every interval, with a fixed delay between the end of one poll and the start of
 * the next, so polls never overlap and a slow load only postpones the next one. It runs beside the request paths,
 * never on them. {@link #close()} lets a poll under way finish (it is not interrupted, so a backend's load is never
 * cut short) and then stops the thread. Thread-safe.
 */
final class RepositoryPoller implements AutoCloseable
{
    private static final Logger LOG = System.getLogger(RepositoryPoller.class.getName());

    private final ScheduledExecutorService thread;

    /**
     * Starts polling.
     *
     * @param poll            runs each poll
     * @param intervalSeconds seconds between polls, positive
     */
    RepositoryPoller(final RepositoryPoll poll, final int intervalSeconds)
    {
        this.thread = Executors.newSingleThreadScheduledExecutor(runnable ->
        {
            final Thread poller = new Thread(runnable, "ingot-repository-poller");
            poller.setDaemon(true);
            return poller;
        });
        thread.scheduleWithFixedDelay(() ->
        {
            try
            {
                poll.poll();
            }
            catch (final RuntimeException e)
            {
                // A failing poll must not end the polling: the next one may succeed.
                LOG.log(Level.ERROR, "repository poll failed", e);
            }
        }, intervalSeconds, intervalSeconds, TimeUnit.SECONDS);
    }

    /** Stops polling; waits for a poll under way. Idempotent. */
    @Override
    public void close()
    {
        thread.shutdown();
        boolean interrupted = false;
        while (true)
        {
            try
            {
                if (thread.awaitTermination(1, TimeUnit.MINUTES))
                {
                    break;
                }
                LOG.log(Level.WARNING, "still waiting for a repository poll to finish loading");
            }
            catch (final InterruptedException e)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }
}
