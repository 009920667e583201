package io.ingot.warmup;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseListener;
import io.ingot.instance.ModelInstance;
import io.ingot.scheduler.FormedBatch;
import io.ingot.scheduler.PendingRequest;
import io.ingot.time.NanoClock;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a {@link WarmupPlan} on one model instance, as Triton's {@code TritonModelInstance::WarmUp} does: each sample
 * {@code count} times, its requests handed to the instance as one batch, straight to its engine (no scheduler, no
 * queue), outputs discarded. Each run is logged at INFO with Triton's line ("model '<m>' instance <i> is running
 * warmup sample '<s>' for iteration <k>"). The runs go through the instance's ordinary execution, so they are counted
 * in the model's statistics exactly as Triton counts them (its warmup requests collect statistics too).
 *
 * <p>The first sample whose responses carry an error ends the warmup with Triton's message, "failed to run warmup
 * sample '<s>': <error>; " followed by the model, instance and iteration. Not thread-safe: called on the loading
 * thread before the instance's own thread starts.
 */
public final class WarmupRunner
{
    /** Checks a request against the model's configuration and fills the core's bookkeeping, as a submission does. */
    @FunctionalInterface
    public interface RequestCheck
    {
        /**
         * @param request the request
         * @param pending its bookkeeping, to fill
         * @throws InferenceException when the request does not fit the configuration
         */
        void check(InferenceRequest request, PendingRequest pending);
    }

    private static final Logger LOG = System.getLogger(WarmupRunner.class.getName());

    private final String model;
    private final int maxBatchSize;
    private final RequestCheck check;
    private final NanoClock clock;

    /**
     * @param model        the model's name
     * @param maxBatchSize the model's {@code max_batch_size}
     * @param check        the model's request validation
     * @param clock        the core's clock (a warmup request's acceptance time, for its statistics)
     */
    public WarmupRunner(final String model, final int maxBatchSize, final RequestCheck check, final NanoClock clock)
    {
        this.clock = clock;
        this.model = model;
        this.maxBatchSize = maxBatchSize;
        this.check = check;
    }

    /**
     * Runs every sample of the plan on the instance.
     *
     * @param plan     the samples
     * @param instance the instance, whose thread has not started
     * @throws InferenceException INVALID_ARG when a sample's request does not fit the configuration or a run fails
     */
    public void run(final WarmupPlan plan, final ModelInstance instance)
    {
        for (final WarmupSample sample : plan.samples())
        {
            final int rows = sample.requests().size();
            final PendingRequest[] pending = new PendingRequest[rows];
            for (int i = 0; i < rows; i++)
            {
                pending[i] = new PendingRequest();
            }
            final FormedBatch batch = new FormedBatch(Math.max(rows, Math.max(1, maxBatchSize)));
            final Collector collector = new Collector();
            for (int iteration = 1; iteration <= sample.count(); iteration++)
            {
                LOG.log(Level.INFO, "model '" + model + "' instance " + instance.name()
                    + " is running warmup sample '" + sample.name() + "' for iteration " + iteration);
                for (int i = 0; i < rows; i++)
                {
                    final InferenceRequest request = sample.requests().get(i);
                    prepare(sample, request, pending[i], collector);
                    batch.add(pending[i]);
                }
                try
                {
                    instance.execute(batch);
                }
                finally
                {
                    batch.clear();
                }
                if (!collector.errors.isEmpty())
                {
                    LOG.log(Level.INFO, "model '" + model + "' instance " + instance.name()
                        + " failed to run warmup sample '" + sample.name() + "'");
                    final StringBuilder message = new StringBuilder("failed to run warmup sample '")
                        .append(sample.name()).append("': ");
                    for (final String error : collector.errors)
                    {
                        message.append(error).append("; ");
                    }
                    message.append("(model '").append(model).append("', instance ").append(instance.name())
                        .append(", iteration ").append(iteration).append(')');
                    throw new InferenceException(ErrorCode.INVALID_ARG, message.toString());
                }
            }
        }
    }

    private void prepare(final WarmupSample sample, final InferenceRequest request, final PendingRequest pending,
        final ResponseListener listener)
    {
        try
        {
            check.check(request, pending);
        }
        catch (final InferenceException ex)
        {
            // The validator's text is Triton's for a request without an id ("[request id: <id_unknown>] ...").
            throw new InferenceException(ex.code(), ex.getMessage() + " (model '" + model + "', warmup sample '"
                + sample.name() + "')", ex);
        }
        pending.request = request;
        pending.listener = listener;
        pending.acceptedNs = clock.nanoTime();
    }

    /** Keeps each response's error and frees its outputs; warmup does not look at results. */
    private static final class Collector implements ResponseListener
    {
        final List<String> errors = new ArrayList<>();

        @Override
        public void onResponse(final InferenceResponse response)
        {
            try (response)
            {
                if (!response.isOk())
                {
                    errors.add(response.error().getMessage());
                }
            }
        }
    }
}
