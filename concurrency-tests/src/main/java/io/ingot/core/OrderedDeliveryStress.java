package io.ingot.core;

import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseAssembly;
import io.ingot.scheduler.PendingRequest;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.concurrent.CopyOnWriteArrayList;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@code preserve_ordering} without a lock: two instances complete the responses of sequences 0 and 1 at the same
 * time; whoever holds the flushing token delivers. Both must be delivered, in order — a response parked while the
 * other thread flushed must not be stranded.
 *
 * <p>r1: responses delivered; r2: 1 when they came in sequence order.
 */
@JCStressTest
@Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "both delivered, in order")
@Outcome(id = {"0, 0", "0, 1", "1, 0", "1, 1"}, expect = FORBIDDEN, desc = "a response was stranded")
@Outcome(id = "2, 0", expect = FORBIDDEN, desc = "delivered out of order")
@State
public class OrderedDeliveryStress
{
    private final CopyOnWriteArrayList<Long> delivered = new CopyOnWriteArrayList<>();
    private final OrderedDelivery ordered = new OrderedDelivery(4, (request, response) ->
        delivered.add(Long.valueOf(response.id())));
    private final PendingRequest first = request(0);
    private final PendingRequest second = request(1);

    private static PendingRequest request(final long sequence)
    {
        final PendingRequest pending = new PendingRequest();
        pending.orderSequence = sequence;
        return pending;
    }

    private static InferenceResponse response(final long sequence)
    {
        final InferenceResponse response = ResponseAssembly.newResponse(null);
        ResponseAssembly.begin(response, new io.ingot.api.InferenceRequest("stress").id(Long.toString(sequence)),
            "stress", 1);
        return response;
    }

    /** The instance that ran sequence 0. */
    @Actor
    public void earlier()
    {
        ordered.complete(first, response(0));
    }

    /** The instance that ran sequence 1. */
    @Actor
    public void later()
    {
        ordered.complete(second, response(1));
    }

    /**
     * @param result what was delivered
     */
    @Arbiter
    public void arbiter(final II_Result result)
    {
        result.r1 = delivered.size();
        result.r2 = delivered.size() == 2 && delivered.get(0) == 0 && delivered.get(1) == 1 ? 1 : 0;
    }
}
