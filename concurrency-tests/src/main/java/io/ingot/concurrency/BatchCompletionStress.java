package io.ingot.concurrency;

import io.ingot.api.InferenceBatch;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseAssembly;
import io.ingot.api.ResponseListener;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * An {@link InferenceBatch} of two requests completed by two Ingot threads at once, while its submission still holds
 * it open: the submitting thread hands request 0 over and answers request 1 itself (a refusal), the other thread
 * answers request 0 as soon as it was handed over. Whichever of the three counts comes last, the listener runs
 * exactly once, and sees both responses (each stored with a plain store before its count); the batch is done after.
 *
 * <p>r1: listener calls; r2: responses the listener saw; r3: 1 when the batch is done.
 */
@JCStressTest
@Outcome(id = "1, 2, 1", expect = ACCEPTABLE, desc = "one call that sees both responses; done")
@Outcome(expect = FORBIDDEN, desc = "the listener called twice or never, a response unseen, or not done")
@State
public class BatchCompletionStress
{
    private final InferenceBatch batch = new InferenceBatch(2);
    private final InferenceResponse response = ResponseAssembly.newResponse(null);
    private volatile ResponseListener handedOver;
    private int calls;
    private int seen;

    /** Two requests. */
    public BatchCompletionStress()
    {
        batch.add(new InferenceRequest("m")).add(new InferenceRequest("m"));
        ResponseAssembly.begin(response, batch.request(0), "m", 1);
    }

    /** The submitting thread: hands request 0 over, refuses request 1, then lets the batch complete. */
    @Actor
    public void submitter()
    {
        batch.submitThrough(done ->
        {
            calls++;
            seen = (done.response(0) != null ? 1 : 0) + (done.response(1) != null ? 1 : 0);
        }, (requests, from, to) ->
        {
            handedOver = requests.listener(0);
            requests.refuse(1, new IllegalStateException("refused"));
        });
    }

    /** An instance thread: answers request 0 once it was handed over. */
    @Actor
    public void instance()
    {
        ResponseListener listener;
        while ((listener = handedOver) == null)
        {
            Thread.onSpinWait();
        }
        listener.onResponse(response);
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
