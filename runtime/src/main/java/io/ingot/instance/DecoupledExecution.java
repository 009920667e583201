package io.ingot.instance;

import io.ingot.api.ErrorCode;
import io.ingot.api.FailureReason;
import io.ingot.backend.Engine;
import io.ingot.scheduler.FormedBatch;
import io.ingot.stats.StatsCell;
import io.ingot.time.NanoClock;

/**
 * How an instance runs a batch whose engine answers through response senders: a decoupled model's ({@code
 * model_transaction_policy { decoupled: true }}, zero or many responses per request), or an engine's that
 * {@link Engine#respondsPerRequest() responds per request} (one each; the name is the first user's). It assembles
 * the inputs as for any model, binds a {@link io.ingot.backend.ResponseSender} to each request, and lets the engine
 * send during {@link Engine#execute}, each response delivered as it is sent. When the engine returns, every request
 * still open (and not {@link io.ingot.backend.ResponseSender#keepOpen kept open}) gets its final: a flags-only one
 * (decoupled) or an error saying the engine gave none (one-response), or Triton's cancellation or stopping error
 * when the caller cancelled or the model is stopping. When the engine throws, every request still open gets an
 * INTERNAL error naming the model, the instance and the cause as its final, after the responses it already had. So
 * each accepted request ends with exactly one final.
 *
 * <p>Statistics are counted when the engine returns, with the whole execution as compute time (the responses
 * overlap it): one executed batch, and each request a success or a backend failure. A request whose final went out
 * during the execution is therefore visible in the statistics only once its batch is done, as in Triton's
 * {@code repeat} backend. Not thread-safe: its instance thread only.
 */
final class DecoupledExecution
{
    private final HostedModel model;
    private final NanoClock clock;
    private final String instanceName;
    private final Engine engine;
    private final StatsCell stats;
    private final AssembledBatch staging;
    private final ResponseSenders senders;

    DecoupledExecution(final HostedModel model, final String instanceName, final Engine engine, final StatsCell stats,
        final AssembledBatch staging)
    {
        this.model = model;
        this.clock = model.clock();
        this.instanceName = instanceName;
        this.engine = engine;
        this.stats = stats;
        this.staging = staging;
        this.senders = staging.senders();
    }

    void execute(final FormedBatch payload)
    {
        final long computeStart = clock.nanoTime();
        long inputEnd = computeStart;
        boolean bound = false;
        Throwable failure = null;
        try
        {
            staging.assemble(payload);
            inputEnd = clock.nanoTime();
            senders.bind(payload, computeStart, inputEnd);
            bound = true;
            engine.execute(staging);
            staging.captureStates();
        }
        catch (final Throwable ex)
        {
            failure = ex;
            if (!bound)
            {
                inputEnd = clock.nanoTime();
                senders.bind(payload, computeStart, inputEnd);  // assembly failed before the senders were bound
            }
        }
        final long end = clock.nanoTime();
        stats.beginUpdate();
        stats.batchExecuted(payload.batchSize(), inputEnd - computeStart, end - inputEnd, 0,
            clock.currentTimeMillis());
        for (int r = 0; r < senders.count(); r++)
        {
            final RequestResponseSender sender = senders.get(r);
            if (!sender.answersRequest())
            {
                continue;
            }
            if (sender.failed || (!sender.isComplete() && !senders.decoupled()))
            {
                // An error final, or a one-response request left without a response (completeIfOpen fails it).
                stats.requestFailed(end - sender.acceptedNs, FailureReason.BACKEND);
            }
            else if (failure == null || sender.isComplete())
            {
                stats.requestSucceeded(sender.batchSize, end - sender.acceptedNs, computeStart - sender.acceptedNs,
                    inputEnd - computeStart, end - inputEnd, 0);
            }
            else
            {
                stats.requestFailed(end - sender.acceptedNs, FailureReason.BACKEND);
            }
        }
        stats.endUpdate();
        final String message = failure == null ? null : "model '" + model.name() + "' version " + model.version()
            + " instance " + instanceName + " failed to execute a batch of " + payload.batchSize() + ": "
            + ModelInstance.describe(failure);
        for (int r = 0; r < senders.count(); r++)
        {
            final RequestResponseSender sender = senders.get(r);
            if (failure == null)
            {
                sender.completeIfOpen();
            }
            else
            {
                sender.failIfOpen(ErrorCode.INTERNAL, message, failure);
            }
        }
    }
}
