package io.ingot.server.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.socket.nio.NioServerSocketChannel;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A listening socket that keeps a listener within bounds whatever its clients do, for the HTTP, metrics and gRPC
 * listeners alike (gRPC takes it through {@code NettyServerBuilder.channelFactory}):
 * <ul>
 *   <li>a connection beyond the {@link ConnectionLimiter}'s maximum is closed as soon as it is accepted, so that its
 *       descriptor is back at once;</li>
 *   <li>an accept that fails (the process is out of descriptors: {@code EMFILE}) pauses accepting for
 *       {@value #PAUSE_MILLIS} ms instead of retrying at once, and is logged once per interval, without a stack
 *       trace, instead of once per attempt.</li>
 * </ul>
 * Everything else is Netty's {@link NioServerSocketChannel}. Runs on the listener's event loop.
 */
public final class GuardedServerSocketChannel extends NioServerSocketChannel
{
    /** How long accepting pauses after a failed accept. */
    public static final long PAUSE_MILLIS = 1000;

    private final String listener;
    private final ConnectionLimiter limiter;
    private final RateLimitedLog refusedLog;
    private final RateLimitedLog acceptFailedLog;

    private GuardedServerSocketChannel(final String listener, final ConnectionLimiter limiter,
        final RateLimitedLog refusedLog, final RateLimitedLog acceptFailedLog)
    {
        this.listener = listener;
        this.limiter = limiter;
        this.refusedLog = refusedLog;
        this.acceptFailedLog = acceptFailedLog;
    }

    /**
     * @param listener the listener's name for log lines ({@code "HTTP"}, {@code "gRPC"})
     * @param limiter  its connection limit
     * @return a factory of its listening channel (one per bind)
     */
    public static ChannelFactory<GuardedServerSocketChannel> factory(final String listener,
        final ConnectionLimiter limiter)
    {
        final System.Logger logger = System.getLogger(GuardedServerSocketChannel.class.getName());
        final RateLimitedLog refused = new RateLimitedLog(logger, System.Logger.Level.WARNING,
            RateLimitedLog.DEFAULT_INTERVAL_NANOS);
        final RateLimitedLog failed = new RateLimitedLog(logger, System.Logger.Level.WARNING,
            RateLimitedLog.DEFAULT_INTERVAL_NANOS);
        return () -> new GuardedServerSocketChannel(listener, limiter, refused, failed);
    }

    @Override
    protected int doReadMessages(final List<Object> buf) throws Exception
    {
        final int before = buf.size();
        try
        {
            super.doReadMessages(buf);
        }
        catch (final IOException acceptFailed)
        {
            acceptFailedLog.log(listener + " listener could not accept a connection (" + acceptFailed.getMessage()
                + "); accepting pauses for " + PAUSE_MILLIS + " ms each time");
            pauseAccepting();
            return 0;
        }
        int accepted = 0;
        for (int i = buf.size() - 1; i >= before; i--)
        {
            final Channel child = (Channel) buf.get(i);
            if (limiter.tryOpen())
            {
                child.closeFuture().addListener(closed -> limiter.closed());
                accepted++;
            }
            else
            {
                buf.remove(i);
                child.unsafe().closeForcibly();
                refusedLog.log(listener + " listener refused a connection from " + child.remoteAddress() + ": "
                    + limiter.max() + " connections are open, the most it accepts");
            }
        }
        return accepted;
    }

    private void pauseAccepting()
    {
        config().setAutoRead(false);
        eventLoop().schedule(() -> config().setAutoRead(true), PAUSE_MILLIS, TimeUnit.MILLISECONDS);
    }
}
