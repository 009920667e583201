package io.ingot.cli;

import io.ingot.api.InferenceCore;
import io.ingot.server.Frontend;
import io.ingot.server.RunningFrontend;
import io.ingot.server.ServeOptions;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A frontend registered for the tests: records what {@code serve} tells it, and whether the core was live then. */
public final class RecordingFrontend implements Frontend
{
    /** What happened, in order, across instances. */
    static final List<String> EVENTS = new CopyOnWriteArrayList<>();

    /** Created by {@link java.util.ServiceLoader}. */
    public RecordingFrontend()
    {
    }

    @Override
    public String name()
    {
        return "recording";
    }

    @Override
    public String describe(final ServeOptions options)
    {
        return "recording frontend on " + options.host() + ":" + options.httpPort();
    }

    @Override
    public RunningFrontend start(final InferenceCore core, final ServeOptions options)
    {
        EVENTS.add("start http=" + options.httpPort() + " grpc=" + options.grpcPort() + " metrics="
            + options.metricsPort() + " ipc=" + options.ipcName().orElse("-") + " settings=" + options.settings());
        return new RunningFrontend()
        {
            @Override
            public void stopAccepting()
            {
                EVENTS.add("stop accepting live=" + core.isLive());
            }

            @Override
            public boolean awaitDrained(final long deadlineNanos)
            {
                EVENTS.add("drained live=" + core.isLive());
                return true;
            }

            @Override
            public void close()
            {
                EVENTS.add("close live=" + core.isLive());
            }
        };
    }
}
