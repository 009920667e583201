package io.ingot.core;

import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.ModelStatistics;
import io.ingot.api.RequestTrace;
import io.ingot.api.ResponseListener;
import io.ingot.config.proto.ModelConfig;
import io.ingot.ensemble.EnsemblePlan;
import io.ingot.ensemble.EnsembleScheduler;
import io.ingot.scheduler.PendingRequest;
import io.ingot.time.NanoClock;
import io.ingot.instance.ResponsePool;

import java.util.List;

/**
 * A loaded ensemble version: the request checks every model gets (against the ensemble's own inputs and outputs,
 * with Triton's messages), then Triton's ensemble scheduler ({@link EnsembleScheduler}). It has no backend, no
 * instance and no queue of its own. Thread-safe.
 */
final class EnsembleVersion implements ServedVersion
{
    private final ModelConfig config;
    private final RequestValidator validator;
    private final EnsembleScheduler scheduler;
    private final NanoClock clock;

    EnsembleVersion(final EnsemblePlan plan, final long version, final InferenceCore core,
        final ResponsePool responses)
    {
        this.config = plan.config();
        this.validator = new RequestValidator(plan.name(), config);
        this.scheduler = new EnsembleScheduler(plan, version, core, responses::acquire);
        this.clock = core.clock();
    }

    @Override
    public void submit(final InferenceRequest request, final ResponseListener listener)
    {
        final PendingRequest checked = RequestValidator.bookkeepingOf(request);
        final RequestTrace trace = request.trace();
        if (trace != null)
        {
            trace.requestStarted(clock.nanoTime());
        }
        validator.validate(request, checked);
        final ResponseListener delivered = trace == null ? listener : response ->
        {
            trace.requestEnded(clock.nanoTime());
            listener.onResponse(response);
        };
        scheduler.submit(request, checked.batchSize, checked.requestedOutputs, delivered);
    }

    @Override
    public ModelConfig config()
    {
        return config;
    }

    @Override
    public List<String> outputLabels(final String output)
    {
        return List.of();
    }

    @Override
    public ModelStatistics statistics()
    {
        return scheduler.statistics();
    }

    @Override
    public boolean isReady()
    {
        return scheduler.isReady();
    }

    @Override
    public long queuedRequests()
    {
        return scheduler.inFlight();
    }

    @Override
    public void stop()
    {
        scheduler.stop();
    }
}
