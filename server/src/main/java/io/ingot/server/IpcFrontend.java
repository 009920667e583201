package io.ingot.server;

import io.ingot.api.InferenceCore;
import io.ingot.server.ipc.IpcServer;

/**
 * Plugs the shared-memory transport into {@code ingot serve --ipc NAME}: clients in other processes reach the core
 * through {@code /dev/shm/ingot-NAME} (layout and clients: {@code docs/ipc.md}).
 */
public final class IpcFrontend implements Frontend
{
    @Override
    public String name()
    {
        return "ipc";
    }

    @Override
    public boolean isEnabled(final ServeOptions options)
    {
        return options.ipcName().isPresent();
    }

    @Override
    public String describe(final ServeOptions options)
    {
        return "shared memory at /dev/shm/ingot-" + options.ipcName().orElse("?");
    }

    @Override
    public RunningFrontend start(final InferenceCore core, final ServeOptions options)
    {
        final IpcServer server = IpcServer.start(core, options.ipcName().orElseThrow());
        return new RunningFrontend()
        {
            @Override
            public void stopAccepting()
            {
                server.stopAccepting();
            }

            @Override
            public boolean awaitDrained(final long deadlineNanos) throws InterruptedException
            {
                return server.awaitDrained(deadlineNanos);
            }

            @Override
            public void close()
            {
                server.close();
            }
        };
    }
}
