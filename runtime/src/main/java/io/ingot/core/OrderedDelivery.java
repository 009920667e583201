package io.ingot.core;

import io.ingot.api.InferenceResponse;
import io.ingot.scheduler.PendingRequest;

import java.util.function.BiConsumer;

/**
 * Delivers responses in the order their requests were dequeued into batches ({@code preserve_ordering}): a slot is
 * reserved per request at dequeue (its {@link PendingRequest#orderSequence}), responses fill their slots, and the
 * front is flushed only while its slot is complete — so a later batch's responses wait for an earlier batch's, also
 * across instances.
 */
final class OrderedDelivery
{
    private PendingRequest[] requests = new PendingRequest[64];
    private InferenceResponse[] responses = new InferenceResponse[64];
    private long next;

    /**
     * Records a finished response and delivers every response now at the front, in order.
     *
     * @param request  the request (with its reserved sequence)
     * @param response its response
     * @param sink     delivers one response
     */
    synchronized void complete(final PendingRequest request, final InferenceResponse response,
        final BiConsumer<PendingRequest, InferenceResponse> sink)
    {
        final long sequence = request.orderSequence;
        while (sequence - next >= requests.length)
        {
            grow();
        }
        final int slot = (int)(sequence & (requests.length - 1));
        requests[slot] = request;
        responses[slot] = response;
        while (true)
        {
            final int front = (int)(next & (requests.length - 1));
            final PendingRequest ready = requests[front];
            if (ready == null || ready.orderSequence != next)
            {
                return;
            }
            final InferenceResponse answer = responses[front];
            requests[front] = null;
            responses[front] = null;
            next++;
            sink.accept(ready, answer);
        }
    }

    private void grow()
    {
        final int length = requests.length;
        final PendingRequest[] biggerRequests = new PendingRequest[length * 2];
        final InferenceResponse[] biggerResponses = new InferenceResponse[length * 2];
        for (int i = 0; i < length; i++)
        {
            final PendingRequest request = requests[i];
            if (request != null)
            {
                final int slot = (int)(request.orderSequence & (length * 2 - 1));
                biggerRequests[slot] = request;
                biggerResponses[slot] = responses[i];
            }
        }
        requests = biggerRequests;
        responses = biggerResponses;
    }
}
