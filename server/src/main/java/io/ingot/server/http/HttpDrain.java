package io.ingot.server.http;

import io.netty.channel.Channel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a graceful stop of the HTTP listener needs: the requests received and not yet answered (in progress or
 * waiting behind another on their connection), whether the listener is draining (every response then closes its
 * connection), and the open connections, so that idle ones can be closed once everything was answered.
 * Thread-safe.
 */
final class HttpDrain
{
    private final AtomicInteger unanswered = new AtomicInteger();
    private final ChannelGroup connections = new DefaultChannelGroup("ingot-http", GlobalEventExecutor.INSTANCE);
    private volatile boolean draining;

    /** @param connection a new connection, closed by {@link #closeConnections()} */
    void opened(final Channel connection)
    {
        connections.add(connection);
    }

    /** A request was received in full. */
    void received()
    {
        unanswered.incrementAndGet();
    }

    /** A request was answered, or can no longer be (its connection is gone). */
    void answered()
    {
        unanswered.decrementAndGet();
    }

    /** @return the requests received and not yet answered */
    int unanswered()
    {
        return unanswered.get();
    }

    /** From now on every response closes its connection. */
    void startDraining()
    {
        draining = true;
    }

    /** @return whether the listener is draining */
    boolean isDraining()
    {
        return draining;
    }

    /**
     * Waits until every received request was answered.
     *
     * @param deadlineNanos the {@link System#nanoTime()} to give up at
     * @return true when none is left
     * @throws InterruptedException when interrupted
     */
    boolean awaitAnswered(final long deadlineNanos) throws InterruptedException
    {
        while (unanswered.get() > 0)
        {
            if (System.nanoTime() - deadlineNanos >= 0)
            {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(5);
        }
        return true;
    }

    /** Closes every connection still open. */
    void closeConnections()
    {
        connections.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
    }
}
