package io.ingot.core;

import io.ingot.api.InferenceBatch;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.RequestLifecycle;
import io.ingot.api.RequestTrace;
import io.ingot.api.ResponseListener;
import io.ingot.api.ResponseStreamListener;
import io.ingot.instance.ResponseDelivery;
import io.ingot.scheduler.FormedBatch;
import io.ingot.scheduler.PendingRequest;
import io.ingot.time.NanoClock;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * The one place a model version's responses leave from ({@link ResponseDelivery}, which its instances call once per
 * response). A final response is copied into the response cache when its request was a cacheable miss and it
 * succeeded ({@link ResponseCaching}); with {@code preserve_ordering}, a final whose request took a place in the order
 * waits for the earlier ones ({@link OrderedDelivery}); then the request's flight ends, its bookkeeping is recycled
 * and its listener is called, on the delivering thread, with no lock held. A non-final response (a decoupled model's)
 * goes straight to the request's stream listener and the request stays in flight. An executed batch's finals are
 * delivered together ({@link #deliverFinals}): those of requests submitted in one {@link InferenceBatch} are stored
 * into it one by one and counted with one decrement per run. A listener that throws is logged; delivery goes on.
 * Thread-safe.
 */
final class VersionDelivery implements ResponseDelivery
{
    private static final Logger LOG = System.getLogger(VersionDelivery.class.getName());

    private final String model;
    /** The model's use of the response cache, or {@code null} when it has none. */
    private final ResponseCaching caching;
    /** {@code preserve_ordering}'s order, or {@code null} when the model does not preserve ordering. */
    private final OrderedDelivery ordered;
    private final NanoClock clock;

    /**
     * @param model            the model's name, for logs
     * @param caching          the model's use of the response cache, or {@code null}
     * @param preserveOrdering whether finals go out in the order their requests entered batches
     * @param clock            the core's clock (traces' end times)
     */
    VersionDelivery(final String model, final ResponseCaching caching, final boolean preserveOrdering,
        final NanoClock clock)
    {
        this.model = model;
        this.caching = caching;
        this.ordered = preserveOrdering ? new OrderedDelivery(this::finish) : null;
        this.clock = clock;
    }

    @Override
    public void deliver(final PendingRequest request, final InferenceResponse response, final boolean last)
    {
        if (!last)
        {
            deliverPartial(request, response);
            return;
        }
        if (caching != null)
        {
            caching.offer(request, response);
        }
        if (ordered != null && request.orderSequence != PendingRequest.NO_ORDER)
        {
            ordered.complete(request, response);
        }
        else
        {
            finish(request, response);
        }
    }

    @Override
    public void deliverFinals(final FormedBatch batch, final InferenceResponse[] responses)
    {
        InferenceBatch group = null;
        int stored = 0;
        try
        {
            for (int r = 0; r < batch.count(); r++)
            {
                final PendingRequest request = batch.get(r);
                final InferenceResponse response = responses[r];
                responses[r] = null;
                if (request == null)
                {
                    continue;
                }
                final InferenceBatch.Completion completion = storable(request, response);
                if (completion == null)
                {
                    deliver(request, response, true);
                    continue;
                }
                if (caching != null)
                {
                    caching.offer(request, response);
                }
                if (completion.batch() != group)
                {
                    countStored(group, stored);
                    group = completion.batch();
                    stored = 0;
                }
                endFlight(request);
                completion.store(response);
                stored++;
            }
        }
        finally
        {
            // Stored responses are counted whatever happened after them, or their batch would never be done.
            countStored(group, stored);
        }
    }

    /**
     * @return the request's {@link InferenceBatch} completion when its final may be stored and counted with others of
     *     its batch, or {@code null}: it takes {@link #deliver}'s way (a stream, an ordered final, no response)
     */
    private InferenceBatch.Completion storable(final PendingRequest request, final InferenceResponse response)
    {
        final boolean waitsForOrder = ordered != null && request.orderSequence != PendingRequest.NO_ORDER;
        return response != null && request.stream == null && !waitsForOrder
            && request.listener instanceof InferenceBatch.Completion completion ? completion : null;
    }

    private static void countStored(final InferenceBatch group, final int stored)
    {
        if (stored > 0)
        {
            group.countStored(stored);
        }
    }

    /** Ends the request's flight and calls its listener, on this thread, with no lock held. */
    private void finish(final PendingRequest request, final InferenceResponse response)
    {
        final ResponseListener listener = request.listener;
        final ResponseStreamListener stream = request.stream;
        endFlight(request);
        try
        {
            if (stream != null)
            {
                stream.onResponse(response, true);
            }
            else if (response != null)  // null: a decoupled model's flags-only final, which a warmup run ignores
            {
                listener.onResponse(response);
            }
        }
        catch (final Throwable ex)
        {
            LOG.log(Level.WARNING, "response listener of model '" + model + "' threw", ex);
        }
    }

    /** Recycles the request's bookkeeping and ends its trace and its flight. */
    private void endFlight(final PendingRequest request)
    {
        final InferenceRequest userRequest = request.request;
        request.clear();
        final RequestTrace trace = userRequest.trace();
        if (trace != null)
        {
            trace.requestEnded(clock.nanoTime());
        }
        RequestLifecycle.end(userRequest);
    }

    private void deliverPartial(final PendingRequest request, final InferenceResponse response)
    {
        try
        {
            if (request.stream != null)
            {
                request.stream.onResponse(response, false);
            }
            else
            {
                request.listener.onResponse(response);  // a warmup run: it only collects errors
            }
        }
        catch (final Throwable ex)
        {
            LOG.log(Level.WARNING, "response listener of model '" + model + "' threw", ex);
        }
    }
}
