package io.ingot.cli;

import io.ingot.metrics.CustomMetrics;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelIndexEntry;
import io.ingot.api.ModelLoadOverrides;
import io.ingot.api.ModelMetadata;
import io.ingot.api.ModelStatistics;
import io.ingot.api.ResponseListener;
import io.ingot.api.ResponseStreamListener;
import io.ingot.api.ServerMetadata;
import io.ingot.config.proto.ModelConfig;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A core served while some of its model repositories could not be read (issue 20: a replica whose mount is
 * unreadable must say so, not crash-loop): with strict readiness it is never ready, so that an orchestrator's
 * readiness probe keeps traffic away while the liveness probe leaves it running and its log says why. Everything
 * else is the core's.
 *
 * <p>The core itself fails to open when one of its repositories cannot be listed, so {@code serve} opens it over the
 * readable ones and wraps it here. Thread-safe as the core is.
 */
final class UnreadableRepositoryGate implements InferenceCore
{
    private final InferenceCore core;

    /**
     * @param core the core over the readable repositories ({@code serve} logs and prints why the others are not)
     */
    UnreadableRepositoryGate(final InferenceCore core)
    {
        this.core = core;
    }

    @Override
    public boolean isReady()
    {
        return false;
    }

    @Override
    public void submit(final InferenceRequest request, final ResponseListener listener)
    {
        core.submit(request, listener);
    }

    @Override
    public void submit(final InferenceRequest request, final ResponseStreamListener listener)
    {
        core.submit(request, listener);
    }

    @Override
    public CompletableFuture<InferenceResponse> submit(final InferenceRequest request)
    {
        return core.submit(request);
    }

    @Override
    public IdleMode idleMode()
    {
        return core.idleMode();
    }

    @Override
    public CustomMetrics customMetrics()
    {
        return core.customMetrics();
    }

    @Override
    public ServerMetadata serverMetadata()
    {
        return core.serverMetadata();
    }

    @Override
    public boolean isLive()
    {
        return core.isLive();
    }

    @Override
    public boolean isModelReady(final String model, final long version)
    {
        return core.isModelReady(model, version);
    }

    @Override
    public ModelMetadata modelMetadata(final String model, final long version)
    {
        return core.modelMetadata(model, version);
    }

    @Override
    public ModelConfig modelConfig(final String model, final long version)
    {
        return core.modelConfig(model, version);
    }

    @Override
    public List<ModelStatistics> modelStatistics(final String model, final long version)
    {
        return core.modelStatistics(model, version);
    }

    @Override
    public List<ModelIndexEntry> repositoryIndex(final boolean readyOnly)
    {
        return core.repositoryIndex(readyOnly);
    }

    @Override
    public List<String> outputLabels(final String model, final long version, final String output)
    {
        return core.outputLabels(model, version, output);
    }

    @Override
    public void loadModel(final String model)
    {
        core.loadModel(model);
    }

    @Override
    public void loadModel(final String model, final ModelLoadOverrides overrides)
    {
        core.loadModel(model, overrides);
    }

    @Override
    public void unloadModel(final String model)
    {
        core.unloadModel(model);
    }

    @Override
    public void unloadModel(final String model, final boolean unloadDependents)
    {
        core.unloadModel(model, unloadDependents);
    }

    @Override
    public void close()
    {
        core.close();
    }
}
