package io.ingot.testing;

import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Plays several sequences against a model at once, as Triton's sequence clients do: at each step one request per
 * sequence is submitted (START on the first step, END on the last), all of that step's requests in flight together so
 * that the sequence batcher may put them in one batch, then each response is awaited and read. Used by the backends'
 * sequence tests; not thread-safe (one test thread).
 */
public final class Sequences
{
    /** Adds one request's inputs. */
    @FunctionalInterface
    public interface Inputs
    {
        /**
         * @param request  the request, its sequence fields set
         * @param step     its step, from 0
         * @param sequence the index of its sequence in the IDs
         */
        void add(InferenceRequest request, int step, int sequence);
    }

    private Sequences()
    {
    }

    /**
     * @param core   the core
     * @param model  the model
     * @param ids    one correlation ID per sequence: a {@link Number} (unsigned 64-bit) or a {@link String}
     * @param steps  requests per sequence
     * @param inputs adds each request's inputs
     * @param read   what the test keeps of a response (which must be a success)
     * @param <T>    what it keeps
     * @return per sequence, what {@code read} kept of each step's response
     * @throws Exception when a response does not come within 60 s or is an error
     */
    public static <T> List<List<T>> play(final InferenceCore core, final String model, final List<?> ids,
        final int steps, final Inputs inputs, final Function<InferenceResponse, T> read)
        throws Exception
    {
        final List<List<T>> kept = new ArrayList<>();
        ids.forEach(id -> kept.add(new ArrayList<>()));
        for (int step = 0; step < steps; step++)
        {
            final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
            for (int s = 0; s < ids.size(); s++)
            {
                final InferenceRequest request = new InferenceRequest(model);
                if (ids.get(s) instanceof String text)
                {
                    request.sequence(text, step == 0, step == steps - 1);
                }
                else
                {
                    request.sequence(((Number) ids.get(s)).longValue(), step == 0, step == steps - 1);
                }
                inputs.add(request, step, s);
                futures.add(core.submit(request));
            }
            for (int s = 0; s < ids.size(); s++)
            {
                try (InferenceResponse response = futures.get(s).get(60, TimeUnit.SECONDS).throwIfError())
                {
                    kept.get(s).add(read.apply(response));
                }
            }
        }
        return kept;
    }
}
