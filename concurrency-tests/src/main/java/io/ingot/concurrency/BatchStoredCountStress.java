package io.ingot.concurrency;

import io.ingot.api.InferenceBatch;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseAssembly;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The completions of an executed batch counted together: an instance thread stores the responses of requests 0 and
 * 1 with plain stores ({@link InferenceBatch.Completion#store}) and counts both with one decrement
 * ({@link InferenceBatch#countStored}), as the core's delivery does, while the submitting thread, which still holds
 * the batch open, refuses request 2 (counted on its own). Whichever count comes last, the listener runs exactly once
 * and sees all three responses — the two plain stores published by the one decrement after them — and the batch is
 * done after.
 *
 * <p>r1: listener calls; r2: responses the listener saw; r3: 1 when the batch is done.
 */
@JCStressTest
@Outcome(id = "1, 3, 1", expect = ACCEPTABLE, desc = "one call that sees the three responses; done")
@Outcome(expect = FORBIDDEN, desc = "the listener called twice or never, a stored response unseen, or not done")
@State
public class BatchStoredCountStress
{
    private final InferenceBatch batch = new InferenceBatch(3);
    private final InferenceResponse first = ResponseAssembly.newResponse(null);
    private final InferenceResponse second = ResponseAssembly.newResponse(null);
    private volatile boolean handedOver;
    private int calls;
    private int seen;

    /** Three requests. */
    public BatchStoredCountStress()
    {
        batch.add(new InferenceRequest("m")).add(new InferenceRequest("m")).add(new InferenceRequest("m"));
        ResponseAssembly.begin(first, batch.request(0), "m", 1);
        ResponseAssembly.begin(second, batch.request(1), "m", 1);
    }

    /** The submitting thread: hands requests 0 and 1 over, refuses request 2, then lets the batch complete. */
    @Actor
    public void submitter()
    {
        batch.submitThrough(done ->
        {
            calls++;
            for (int i = 0; i < 3; i++)
            {
                seen += done.response(i) != null ? 1 : 0;
            }
        }, (requests, from, to) ->
        {
            handedOver = true;
            requests.refuse(2, new IllegalStateException("refused"));
        });
    }

    /** An instance thread: once they were handed over, stores both responses and counts them with one decrement. */
    @Actor
    public void instance()
    {
        while (!handedOver)
        {
            Thread.onSpinWait();
        }
        ((InferenceBatch.Completion)batch.listener(0)).store(first);
        ((InferenceBatch.Completion)batch.listener(1)).store(second);
        batch.countStored(2);
    }

    /**
     * @param result r1: listener calls; r2: responses seen; r3: done
     */
    @Arbiter
    public void arbiter(final III_Result result)
    {
        result.r1 = calls;
        result.r2 = seen;
        result.r3 = batch.isDone() ? 1 : 0;
    }
}
