package io.ingot.warmup;

import io.ingot.api.InferenceRequest;

import java.util.List;

/**
 * One warmup sample ready to run: its name, how many times it runs, and its {@code batch_size} requests of one row
 * each, which run together as one execution (as Triton hands them to the backend in one call). The requests read the
 * plan's memory and are reused for every run and every instance.
 *
 * @param name     the sample's name, for the log and messages
 * @param count    how many times it runs ({@code max(count, 1)})
 * @param requests the sample's requests, one row each
 */
public record WarmupSample(String name, int count, List<InferenceRequest> requests)
{
    /** Freezes the request list. */
    public WarmupSample
    {
        requests = List.copyOf(requests);
    }
}
