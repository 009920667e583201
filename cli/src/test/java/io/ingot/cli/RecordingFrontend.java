package io.ingot.cli;

import io.ingot.api.InferenceCore;
import io.ingot.server.Frontend;
import io.ingot.server.ServeOptions;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A frontend registered for the tests: records what {@code serve} tells it, and checks the core is live on close. */
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
    public AutoCloseable start(final InferenceCore core, final ServeOptions options)
    {
        EVENTS.add("start http=" + options.httpPort() + " grpc=" + options.grpcPort() + " metrics="
            + options.metricsPort() + " ipc=" + options.ipcName().orElse("-") + " settings=" + options.settings());
        return () -> EVENTS.add("close live=" + core.isLive());
    }
}
