package io.ingot.core;

import io.ingot.api.InferenceBatch;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.ModelStatistics;
import io.ingot.api.ResponseListener;
import io.ingot.api.ResponseStreamListener;
import io.ingot.config.proto.ModelConfig;

import java.util.List;
import java.util.function.IntConsumer;

/**
 * One loaded model version as the core's model table holds it: a model served by a backend ({@link ModelRuntime})
 * or an ensemble ({@link EnsembleVersion}). Thread-safe.
 */
interface ServedVersion
{
    /**
     * Validates a request and accepts it; its listener then gets exactly one response.
     *
     * @param request  the request
     * @param listener its listener
     * @throws io.ingot.api.InferenceException when the request is refused (no response follows)
     */
    void submit(InferenceRequest request, ResponseListener listener);

    /**
     * Validates a request and accepts it as {@link #submit(InferenceRequest, ResponseListener)} does, and runs its
     * batch on the calling thread when an instance is idle and may ({@code InferenceCore.submitAndRun}). This default
     * only submits.
     *
     * @param request  the request
     * @param listener its listener (possibly called before this returns)
     * @throws io.ingot.api.InferenceException when the request is refused (no response follows)
     */
    default void submitAndRun(final InferenceRequest request, final ResponseListener listener)
    {
        submit(request, listener);
    }

    /**
     * Validates a request and accepts it; its listener then gets the responses, the last one flagged. A version
     * that answers once (an ensemble) delivers its one response as the last.
     *
     * @param request  the request
     * @param listener its listener
     * @throws io.ingot.api.InferenceException when the request is refused (no response follows)
     */
    default void submit(final InferenceRequest request, final ResponseStreamListener listener)
    {
        submit(request, response -> listener.onResponse(response, true));
    }

    /**
     * Accepts the requests {@code [from, to)} of a batch, all for this version: each accepted one answers through its
     * {@link InferenceBatch#listener}, each refused one gets its error through {@link InferenceBatch#refuse}, except
     * that a request refused because the version stopped or retired goes to {@code resend} (the core sends it on to
     * the version that replaced this one). This default submits them one by one.
     *
     * @param batch  the batch
     * @param from   its first request for this version
     * @param to     one past the last
     * @param resend receives the position of each request to send on
     */
    default void submitAll(final InferenceBatch batch, final int from, final int to, final IntConsumer resend)
    {
        for (int i = from; i < to; i++)
        {
            try
            {
                submit(batch.request(i), batch.listener(i));
            }
            catch (final InferenceException refused)
            {
                if (isReady())
                {
                    batch.refuse(i, refused);
                }
                else
                {
                    resend.accept(i);
                }
            }
            catch (final RuntimeException refused)
            {
                batch.refuse(i, refused);
            }
        }
    }

    /** @return the version's final configuration */
    ModelConfig config();

    /**
     * @param output an output's name
     * @return its class labels, empty when it has none
     */
    List<String> outputLabels(String output);

    /** @return the version's statistics */
    ModelStatistics statistics();

    /** @return whether the version still accepts requests */
    boolean isReady();

    /** @return the requests accepted and not yet in a batch or answered */
    long queuedRequests();

    /** Stops: refuses new requests and answers every accepted one before it returns. */
    void stop();

    /**
     * Stops a version that a reload replaced: refuses new requests at once, and answers every accepted one before it
     * returns, running the queued ones rather than refusing them where the version can.
     */
    default void retire()
    {
        stop();
    }
}
