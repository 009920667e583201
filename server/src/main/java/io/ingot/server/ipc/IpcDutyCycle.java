package io.ingot.server.ipc;

import io.ingot.agent.Agent;
import io.ingot.ipc.ClientEntryDescriptor;
import io.ingot.ipc.ClientEntryFlyweight;
import io.ingot.ipc.IpcLayout;
import io.ingot.time.NanoClock;

/**
 * The IPC thread's duty, an {@link Agent}: each pass polls the request rings of the clients being served, scans the
 * client table every 2 ms (registrations, departures, drained slots), and heartbeats and checks clients' liveness at
 * the region's heartbeat interval. Between passes without work the server's idle strategy (from {@code IdleMode})
 * sleeps on the region's request doorbell until a client rings it or the next scan or heartbeat is due.
 *
 * <p>Called only from the IPC thread.
 */
final class IpcDutyCycle implements Agent
{
    private static final long SCAN_PERIOD_NANOS = 2_000_000L;

    private final IpcServer server;
    private final NanoClock clock;
    private final long heartbeatNanos;
    private final long timeoutNanos;
    private long nextScan;
    private long nextBeat;
    private long beat;

    IpcDutyCycle(final IpcServer server)
    {
        this.server = server;
        this.clock = server.clock();
        this.nextScan = clock.nanoTime();
        this.nextBeat = nextScan;
        final IpcLayout layout = server.region().layout();
        this.heartbeatNanos = layout.heartbeatIntervalMs() * 1_000_000L;
        this.timeoutNanos = layout.livenessTimeoutMs() * 1_000_000L;
    }

    @Override
    public int doWork()
    {
        int work = 0;
        for (final ClientSession session : server.sessions())
        {
            if (session.phase() == ClientSession.SERVING)
            {
                work += session.poll();
            }
        }
        final long now = clock.nanoTime();
        if (now - nextScan >= 0)
        {
            work += scanClientTable(now);
            nextScan = now + SCAN_PERIOD_NANOS;
        }
        if (now - nextBeat >= 0)
        {
            server.region().header().serverHeartbeat(++beat);
            for (final ClientSession session : server.sessions())
            {
                final int phase = session.phase();
                if (phase == ClientSession.SERVING || phase == ClientSession.FAULTED)
                {
                    session.checkLiveness(now, timeoutNanos);
                }
            }
            nextBeat = now + heartbeatNanos;
        }
        return work;
    }

    /** Never past the next table scan or heartbeat: registrations and departures are noticed on time. */
    @Override
    public long wakeDeadlineNs()
    {
        return Math.min(nextScan, nextBeat);
    }

    @Override
    public boolean isDone()
    {
        return !server.isRunning();
    }

    @Override
    public String roleName()
    {
        return "ingot-ipc-" + server.region().name();
    }

    /** Activates registrations, notices departures, frees drained slots. */
    private int scanClientTable(final long now)
    {
        int work = 0;
        for (final ClientSession session : server.sessions())
        {
            final ClientEntryFlyweight entry = session.entry();
            final int state = entry.state();
            final int phase = session.phase();
            if (phase == ClientSession.DRAINING)
            {
                work += session.finishReclaim() ? 1 : 0;
            }
            else if (state == ClientEntryDescriptor.REQUESTED && phase == ClientSession.IDLE && server.isAccepting())
            {
                session.activate(now);
                work++;
            }
            else if (state == ClientEntryDescriptor.CLOSING)
            {
                if (phase == ClientSession.IDLE)
                {
                    session.freeUnserved();
                }
                else
                {
                    session.beginReclaim("the client closed");
                }
                work++;
            }
        }
        return work;
    }
}
