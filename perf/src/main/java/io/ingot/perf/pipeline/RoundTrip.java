package io.ingot.perf.pipeline;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The floors every pipeline is measured against: a round trip between the caller and one other thread and back —
 * what any design that runs the engine on another thread pays at least. {@link #parking()}: each side parks while it
 * waits and the other unparks it (two blocking hand-offs, as a parked instance and a parked caller cost);
 * {@link #spinning()}: both sides busy-spin on a volatile field (two spinning hand-offs). One caller at a time.
 */
public final class RoundTrip implements AutoCloseable
{
    private static final VarHandle PING;
    private static final VarHandle PONG;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            PING = lookup.findVarHandle(RoundTrip.class, "ping", long.class);
            PONG = lookup.findVarHandle(RoundTrip.class, "pong", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final boolean park;
    private final Thread echo;
    @SuppressWarnings("unused")
    private long p01, p02, p03, p04, p05, p06, p07;
    private volatile long ping;
    @SuppressWarnings("unused")
    private long p11, p12, p13, p14, p15, p16, p17;
    private volatile long pong;
    @SuppressWarnings("unused")
    private long p21, p22, p23, p24, p25, p26, p27;
    private volatile Thread caller;
    private volatile boolean running = true;

    private RoundTrip(final boolean park)
    {
        this.park = park;
        this.echo = Thread.ofPlatform().name(park ? "round-trip-park" : "round-trip-spin").daemon(true)
            .start(this::echo);
    }

    /** @return a round trip in which both sides park and unpark each other */
    public static RoundTrip parking()
    {
        return new RoundTrip(true);
    }

    /** @return a round trip in which both sides spin */
    public static RoundTrip spinning()
    {
        return new RoundTrip(false);
    }

    /** One round trip: hands a token to the other thread and waits for it to come back. */
    public void roundTrip()
    {
        final long token = (long)PING.get(this) + 1;
        if (park)
        {
            caller = Thread.currentThread();
            PING.setVolatile(this, token);
            LockSupport.unpark(echo);
            while ((long)PONG.getVolatile(this) != token)
            {
                LockSupport.park(this);
            }
        }
        else
        {
            PING.setVolatile(this, token);
            while ((long)PONG.getVolatile(this) != token)
            {
                Thread.onSpinWait();
            }
        }
    }

    private void echo()
    {
        long seen = 0;
        while (running)
        {
            final long token = (long)PING.getVolatile(this);
            if (token == seen)
            {
                if (park)
                {
                    LockSupport.park(this);
                }
                else
                {
                    Thread.onSpinWait();
                }
                continue;
            }
            seen = token;
            PONG.setVolatile(this, token);
            if (park)
            {
                LockSupport.unpark(caller);
            }
        }
    }

    @Override
    public void close()
    {
        running = false;
        LockSupport.unpark(echo);
        try
        {
            echo.join(5_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
