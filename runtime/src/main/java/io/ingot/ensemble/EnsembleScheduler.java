package io.ingot.ensemble;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelStatistics;
import io.ingot.api.RequestLifecycle;
import io.ingot.api.ResponseListener;
import io.ingot.scheduler.RefusalMessages;
import io.ingot.scheduler.SchedulerSettings;
import io.ingot.stats.ModelStatsRecorder;
import io.ingot.time.NanoClock;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Triton's ensemble scheduler for one loaded ensemble version. A request runs as an {@link EnsembleFlight}: each
 * step is submitted to its composing model through the core's own submit path (so it is validated, batched, cached
 * and counted by that model, as in Triton) as soon as every tensor it reads exists, so independent steps run in
 * parallel; the next steps are submitted from the thread that delivered the step response that completed their
 * inputs. The ensemble adds no thread and does no batching of its own.
 *
 * <p>Every step request carries the ensemble request's id, correlation ID and sequence flags, its timeout, and its
 * priority normalized for that composing model as Triton's {@code SetPriority} does (0, or a level above the
 * model's {@code priority_levels}, becomes its {@code default_priority_level}; 0 without dynamic batching).
 * {@code ensemble_scheduling.max_inflight_responses} caps each step's requests in flight ({@link StepLimiter}).
 *
 * <p>Statistics have Triton's ensemble shape: success, failure and queue are the ensemble request's own (queue is
 * the time until its first step was submitted), the compute durations are the sums of its steps' compute
 * durations, and each request counts one execution. The composing models count their own requests.
 *
 * <p>Thread-safe. {@link #stop()} refuses new requests and waits for those in flight: each gets exactly one
 * response, its own or its failing step's error.
 */
public final class EnsembleScheduler
{
    private static final Logger LOG = System.getLogger(EnsembleScheduler.class.getName());
    /** How long {@link #stop()} waits for requests in flight before it gives up waiting (they still get answered). */
    private static final long STOP_WAIT_NS = TimeUnit.SECONDS.toNanos(60);

    private final EnsemblePlan plan;
    private final long version;
    private final InferenceCore core;
    private final NanoClock clock;
    private final Supplier<InferenceResponse> responses;
    private final SchedulerSettings[] stepSettings;
    /** Per step its limiter, or {@code null} when the ensemble sets no limit. */
    private final StepLimiter[] limiters;
    private final ModelStatsRecorder stats;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean stopping;

    /**
     * @param plan      the linked ensemble
     * @param version   its version
     * @param core      where step requests are submitted
     * @param responses where the ensemble's responses come from
     */
    public EnsembleScheduler(final EnsemblePlan plan, final long version, final InferenceCore core,
        final Supplier<InferenceResponse> responses)
    {
        this.plan = plan;
        this.version = version;
        this.core = core;
        this.clock = core.clock();
        this.responses = responses;
        this.stepSettings = new SchedulerSettings[plan.steps().length];
        for (int i = 0; i < stepSettings.length; i++)
        {
            stepSettings[i] = SchedulerSettings.of(plan.steps()[i].config());
        }
        final int limit = plan.config().getEnsembleScheduling().getMaxInflightResponses();
        if (limit > 0)
        {
            limiters = new StepLimiter[plan.steps().length];
            for (int i = 0; i < limiters.length; i++)
            {
                limiters[i] = new StepLimiter(limit);
            }
        }
        else
        {
            limiters = null;
        }
        this.stats = new ModelStatsRecorder(Math.max(1, plan.config().getMaxBatchSize()), 0, inFlight::get);
    }

    /**
     * Runs a request already validated against the ensemble's configuration.
     *
     * @param request          the request
     * @param batchSize        {@code max(1, batch size)} of the request
     * @param requestedOutputs bit {@code i} set when configured output {@code i} is to be returned
     * @param listener         receives the one response
     * @throws InferenceException UNAVAILABLE when the ensemble is stopping
     */
    public void submit(final InferenceRequest request, final int batchSize, final long requestedOutputs,
        final ResponseListener listener)
    {
        inFlight.incrementAndGet();
        if (stopping)
        {
            inFlight.decrementAndGet();
            throw new InferenceException(ErrorCode.UNAVAILABLE, RefusalMessages.stopping(request));
        }
        final EnsembleFlight flight = new EnsembleFlight(this, request, batchSize, requestedOutputs, listener);
        if (!RequestLifecycle.begin(request, flight::cancelSteps))
        {
            inFlight.decrementAndGet();
            throw new IllegalStateException("request '" + request.id() + "' for model '" + plan.name()
                + "' is already in flight; submit it again only after its response was delivered");
        }
        flight.start();
    }

    /** @return the core's clock, which the ensemble's statistics are timed on */
    NanoClock clock()
    {
        return clock;
    }

    EnsemblePlan plan()
    {
        return plan;
    }

    long version()
    {
        return version;
    }

    InferenceCore core()
    {
        return core;
    }

    InferenceResponse newResponse()
    {
        return responses.get();
    }

    /** @return the step's limiter, or {@code null} */
    StepLimiter limiter(final int step)
    {
        return limiters == null ? null : limiters[step];
    }

    /** @return the priority a step request carries: the ensemble request's, normalized for the composing model */
    long stepPriority(final int step, final long priority)
    {
        return stepSettings[step].levelOf(priority);
    }

    ModelStatsRecorder stats()
    {
        return stats;
    }

    /** A flight delivered its response. */
    void landed()
    {
        inFlight.decrementAndGet();
    }

    /** @return the ensemble's statistics */
    public ModelStatistics statistics()
    {
        return stats.snapshot(plan.name(), Long.toString(version));
    }

    /** @return the requests accepted and not yet answered */
    public int inFlight()
    {
        return inFlight.get();
    }

    /** @return whether the ensemble still accepts requests */
    public boolean isReady()
    {
        return !stopping;
    }

    /**
     * Refuses new requests and waits (up to a minute) until every request in flight is answered; their steps are
     * answered by the composing models, which stop on their own (a stopping core refuses the steps not yet
     * submitted, which fails their ensemble requests with that error).
     */
    public void stop()
    {
        stopping = true;
        final long deadline = clock.nanoTime() + STOP_WAIT_NS;
        while (inFlight.get() > 0)
        {
            if (clock.nanoTime() - deadline > 0)
            {
                LOG.log(Level.WARNING, "ensemble '" + plan.name() + "': " + inFlight.get() + " request(s) still "
                    + "in flight after 60 s at stop; they are answered when their steps are");
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
