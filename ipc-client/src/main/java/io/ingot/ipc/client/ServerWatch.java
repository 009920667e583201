package io.ingot.ipc.client;

import io.ingot.ipc.HeaderDescriptor;
import io.ingot.ipc.HeaderFlyweight;
import io.ingot.ipc.IpcLayout;
import io.ingot.ipc.IpcRegion;
import io.ingot.ipc.IpcServerGoneException;
import io.ingot.ipc.ProcessIdentity;

/**
 * A client's watch on its server: a server that closed, whose process is gone, whose heartbeat stood still for the
 * liveness timeout, or that another server replaced raises {@link IpcServerGoneException}, and keeps raising it,
 * so that no wait of the client outlives its server. Reads only the header and {@code /proc}: it allocates nothing
 * until the server is gone. Used by the client's one thread.
 */
final class ServerWatch
{
    private final IpcRegion region;
    private final IpcLayout layout;
    private final HeaderFlyweight header;
    private final long generation;
    private final long serverPid;
    private final long serverStartTicks;
    private final long serverPidNamespace;

    private String goneReason;
    private long lastServerHeartbeat = -1;
    private long lastServerHeartbeatChange;
    private long nextServerProbe;

    /**
     * Watches the server that wrote the region's header, its heartbeat's timeout counted from now.
     *
     * @param region the mapped region
     */
    ServerWatch(final IpcRegion region)
    {
        this.region = region;
        this.layout = region.layout();
        this.header = region.header();
        this.generation = header.generation();
        this.serverPid = header.serverPid();
        this.serverStartTicks = header.serverStartTicks();
        this.serverPidNamespace = header.serverPidNamespace();
        this.lastServerHeartbeatChange = System.nanoTime();
    }

    /** @return the generation of the watched server. */
    long generation()
    {
        return generation;
    }

    /** @return the watched server's heartbeat now, for messages. */
    long serverHeartbeat()
    {
        return header.serverHeartbeat();
    }

    /**
     * The cheap check, before any use of the connection.
     *
     * @throws IpcServerGoneException when the server has closed
     */
    void checkOpen()
    {
        if (header.serverState() == HeaderDescriptor.SERVER_CLOSED)
        {
            throw gone("has closed");
        }
    }

    /**
     * The whole check, in every wait: closed, dead (process gone, probed once per heartbeat interval) or silent
     * (heartbeat still for the liveness timeout).
     *
     * @param now {@link System#nanoTime()}
     * @throws IpcServerGoneException when the server is gone, or was found gone before
     */
    void check(final long now)
    {
        if (goneReason != null)
        {
            throw gone(goneReason);
        }
        checkOpen();
        final long beat = header.serverHeartbeat();
        if (beat != lastServerHeartbeat)
        {
            lastServerHeartbeat = beat;
            lastServerHeartbeatChange = now;
        }
        else if (now - lastServerHeartbeatChange > layout.livenessTimeoutMs() * 1_000_000L)
        {
            throw gone("stopped responding: its heartbeat has not moved for " + layout.livenessTimeoutMs() + " ms");
        }
        if (now - nextServerProbe >= 0)
        {
            nextServerProbe = now + layout.heartbeatIntervalMs() * 1_000_000L;
            if (ProcessIdentity.probe(serverPid, serverStartTicks, serverPidNamespace)
                == ProcessIdentity.Liveness.GONE)
            {
                throw gone("is gone: its process " + serverPid + " no longer runs");
            }
        }
    }

    private IpcServerGoneException gone(final String what)
    {
        goneReason = what;
        final long replacement = region.replacementGeneration();
        if (replacement != 0)
        {
            return new IpcServerGoneException("the Ingot IPC server '" + region.name() + "' restarted (generation "
                + generation + " -> " + replacement + "): this connection is gone; connect again", true);
        }
        return new IpcServerGoneException("the Ingot IPC server '" + region.name() + "' (generation " + generation
            + ", pid " + serverPid + ") " + what, false);
    }
}
