package io.ingot.ipc.client;

import io.ingot.ipc.ClientEntryDescriptor;
import io.ingot.ipc.ClientEntryFlyweight;
import io.ingot.ipc.HeaderDescriptor;
import io.ingot.ipc.IpcCapacityException;
import io.ingot.ipc.IpcClientEvictedException;
import io.ingot.ipc.IpcException;
import io.ingot.ipc.IpcLayout;
import io.ingot.ipc.IpcRegion;
import io.ingot.ipc.IpcTimeoutException;
import io.ingot.ipc.ProcessIdentity;

import java.io.IOException;
import java.nio.channels.FileLock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A client's entry in the region's client table (docs/ipc.md, "Client lifecycle"): taken FREE under the registration
 * lock, REQUESTED until the server activates it, ACTIVE with a session while the client beats its heartbeat, CLOSING
 * when the client leaves. {@link #checkOwned()} tells whether the server faulted or reclaimed it. The client's thread
 * registers, checks and leaves; a daemon thread shared by all clients of the process beats.
 */
final class ClientSlot
{
    /** POSIX record locks belong to the process: threads of one JVM take turns before taking one. */
    private static final ReentrantLock PROCESS_REGISTRATION = new ReentrantLock();
    private static final ScheduledExecutorService HEARTBEATS = Executors.newSingleThreadScheduledExecutor(task ->
    {
        final Thread thread = new Thread(task, "ingot-ipc-client-heartbeat");
        thread.setDaemon(true);
        return thread;
    });

    private final IpcRegion region;
    private final int slot;
    private final ClientEntryFlyweight entry = new ClientEntryFlyweight();

    private long session;
    private ScheduledFuture<?> heartbeatTask;
    private long heartbeat;
    private volatile boolean left;

    private ClientSlot(final IpcRegion region, final int slot)
    {
        this.region = region;
        this.slot = slot;
        entry.wrap(region.memory(), region.layout().clientEntryOffset(slot));
    }

    /**
     * Takes a FREE entry for this process, state REQUESTED.
     *
     * @param region the server's mapped region
     * @return the entry
     * @throws IpcCapacityException when every client slot is taken
     */
    static ClientSlot register(final IpcRegion region)
    {
        final IpcLayout layout = region.layout();
        final ClientEntryFlyweight candidate = new ClientEntryFlyweight();
        PROCESS_REGISTRATION.lock();
        try (FileLock ignored = region.lock(HeaderDescriptor.REGISTRATION_LOCK_OFFSET))
        {
            for (int slot = 0; slot < layout.maxClients(); slot++)
            {
                candidate.wrap(region.memory(), layout.clientEntryOffset(slot));
                if (candidate.state() == ClientEntryDescriptor.FREE)
                {
                    candidate.client(ClientEntryDescriptor.KIND_JAVA, ProcessIdentity.current())
                        .state(ClientEntryDescriptor.REQUESTED);
                    return new ClientSlot(region, slot);
                }
            }
            throw new IpcCapacityException("all " + layout.maxClients() + " client slots of the Ingot IPC server '"
                + region.name() + "' are in use; close other clients or start the server with more maxClients");
        }
        catch (final IOException ex)
        {
            throw new IpcException("cannot release the registration lock of " + region.path() + ": "
                + ex.getMessage(), ex);
        }
        finally
        {
            PROCESS_REGISTRATION.unlock();
        }
    }

    /**
     * Waits until the server activates the entry, then beats its heartbeat every interval of the layout.
     *
     * @param timeout how long to wait
     * @param server  the watch that notices a server gone meanwhile
     * @throws IpcClientEvictedException when the entry leaves REQUESTED for anything but ACTIVE
     * @throws IpcTimeoutException       when the server does not activate it in time (the entry becomes CLOSING)
     */
    void awaitActivation(final Duration timeout, final ServerWatch server)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        long sleepMicros = 50;
        while (true)
        {
            final int state = entry.state();
            if (state == ClientEntryDescriptor.ACTIVE)
            {
                break;
            }
            if (state != ClientEntryDescriptor.REQUESTED)
            {
                throw new IpcClientEvictedException("client slot " + slot + " of '" + region.name() + "' went to "
                    + ClientEntryDescriptor.stateName(state) + " while registering");
            }
            server.check(System.nanoTime());
            if (System.nanoTime() > deadline)
            {
                entry.state(ClientEntryDescriptor.CLOSING);
                throw new IpcTimeoutException("the Ingot IPC server '" + region.name() + "' did not accept client "
                    + "slot " + slot + " within " + timeout.toMillis() + " ms; its heartbeat is "
                    + server.serverHeartbeat() + " (a heartbeat that does not move means the server is stuck)");
            }
            sleepMicros(sleepMicros);
            sleepMicros = Math.min(sleepMicros * 2, 5_000);
        }
        session = entry.session();
        heartbeatTask = HEARTBEATS.scheduleAtFixedRate(this::beat, 0, region.layout().heartbeatIntervalMs(),
            TimeUnit.MILLISECONDS);
    }

    private void beat()
    {
        if (!left && entry.state() == ClientEntryDescriptor.ACTIVE && entry.session() == session)
        {
            entry.heartbeat(++heartbeat);
        }
    }

    /** @return the entry's index in the client table. */
    int index()
    {
        return slot;
    }

    /**
     * @throws IpcClientEvictedException when the server faulted the entry (with its reason) or reclaimed it
     */
    void checkOwned()
    {
        final int state = entry.state();
        if (state == ClientEntryDescriptor.ACTIVE && entry.session() == session)
        {
            return;
        }
        if (state == ClientEntryDescriptor.FAULTED)
        {
            throw new IpcClientEvictedException("the Ingot IPC server '" + region.name() + "' stopped serving client "
                + "slot " + slot + ": " + entry.faultMessage());
        }
        throw new IpcClientEvictedException("client slot " + slot + " of the Ingot IPC server '" + region.name()
            + "' is no longer this client's (state " + ClientEntryDescriptor.stateName(state) + "): the server "
            + "reclaimed it; connect again");
    }

    /** Stops the heartbeat and, if the entry is still this client's, marks it CLOSING for the server to reclaim. */
    void leave()
    {
        left = true;
        if (heartbeatTask != null)
        {
            heartbeatTask.cancel(false);
        }
        final int state = entry.state();
        if ((state == ClientEntryDescriptor.ACTIVE || state == ClientEntryDescriptor.FAULTED
            || state == ClientEntryDescriptor.REQUESTED) && entry.session() == session)
        {
            entry.state(ClientEntryDescriptor.CLOSING);
        }
    }

    /**
     * Unmaps a region, never while a thread of this process registers.
     *
     * @param region the region to close
     */
    static void closeRegion(final IpcRegion region)
    {
        // Closing a descriptor drops every POSIX lock this process holds on the file, so not during a registration.
        PROCESS_REGISTRATION.lock();
        try
        {
            region.close();
        }
        finally
        {
            PROCESS_REGISTRATION.unlock();
        }
    }

    private static void sleepMicros(final long micros)
    {
        try
        {
            Thread.sleep(Duration.ofNanos(micros * 1_000));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IpcException("interrupted while waiting for the Ingot IPC server");
        }
    }
}
