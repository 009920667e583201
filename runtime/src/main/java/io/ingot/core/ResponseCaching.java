package io.ingot.core;

import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.OutputTensor;
import io.ingot.api.ResponseAllocator;
import io.ingot.api.ResponseAssembly;
import io.ingot.cache.CacheKey;
import io.ingot.cache.CachedResponse;
import io.ingot.cache.ResponseCache;
import io.ingot.config.proto.ModelConfig;
import io.ingot.scheduler.PendingRequest;
import io.ingot.stats.StatsCell;
import io.ingot.time.NanoClock;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * One model version's use of the core's response cache (triton-next.md §4): before a request is scheduled its key is
 * looked up and a hit is answered from the cache at once; a miss is marked, and its successful response is copied
 * into the cache when it is delivered. Failed responses are never kept. Thread-safe: any submitting thread looks up,
 * any instance thread inserts.
 */
final class ResponseCaching
{
    private static final ThreadLocal<CacheKey> KEYS = ThreadLocal.withInitial(CacheKey::new);

    private final String model;
    private final long version;
    private final String[] inputNames;
    private final ResponseCache cache;
    private final StatsCell stats;
    private final NanoClock clock;

    ResponseCaching(final ModelConfig config, final long version, final ResponseCache cache, final StatsCell stats,
        final NanoClock clock)
    {
        this.clock = clock;
        this.model = config.getName();
        this.version = version;
        this.inputNames = config.getInputList().stream().map(input -> input.getName()).toArray(String[]::new);
        this.cache = cache;
        this.stats = stats;
    }

    /**
     * Looks the request up. On a miss the request is marked cacheable with its key.
     *
     * @param request the validated request
     * @param pending its bookkeeping (input indices and requested outputs filled in)
     * @return the cached response, or {@code null} on a miss
     */
    CachedResponse lookup(final InferenceRequest request, final PendingRequest pending)
    {
        final long start = clock.nanoTime();
        pending.acceptedNs = start;
        final CacheKey key = KEYS.get().begin(model, version);
        for (int c = 0; c < inputNames.length; c++)
        {
            final int index = pending.inputIndexByConfig[c];
            if (index >= 0)
            {
                key.input(inputNames[c], request.inputData(index));
            }
        }
        final long value = key.outputs(pending.requestedOutputs).value();
        final CachedResponse cached = cache.lookup(value);
        pending.cacheable = cached == null;
        pending.cacheKey = value;
        if (cached == null)
        {
            pending.cacheLookupNs = clock.nanoTime() - start;
        }
        return cached;
    }

    /**
     * Answers a hit: the cached outputs copied into memory from the request's allocator.
     *
     * @param cached    what {@link #lookup} found
     * @param pending   the request's bookkeeping
     * @param response  the opened response to fill
     * @param allocator the request's output allocator
     */
    void fill(final CachedResponse cached, final PendingRequest pending, final InferenceResponse response,
        final ResponseAllocator allocator)
    {
        for (final CachedResponse.Output output : cached.outputs())
        {
            final MemorySegment target = allocator.allocate(output.name(), output.dataType(), output.shape(),
                output.data().length);
            final MemorySegment exact = target.byteSize() == output.data().length ? target
                : target.asSlice(0, output.data().length);
            MemorySegment.copy(MemorySegment.ofArray(output.data()), 0, exact, 0, output.data().length);
            ResponseAssembly.addOutput(response, output.name(), output.dataType(), output.shape(),
                output.shape().length, exact, target, allocator);
        }
        // A hit's request began with its lookup, so its whole duration is the hit's duration.
        final long hitNs = clock.nanoTime() - pending.acceptedNs;
        stats.cacheHit(hitNs, hitNs);
    }

    /**
     * Delivery of a cacheable request's response: a successful one is copied into the cache.
     *
     * @param pending  the request's bookkeeping
     * @param response its response
     */
    void offer(final PendingRequest pending, final InferenceResponse response)
    {
        if (!pending.cacheable)
        {
            return;
        }
        pending.cacheable = false;
        if (!response.isOk())
        {
            return;
        }
        final long start = clock.nanoTime();
        final List<CachedResponse.Output> outputs = new ArrayList<>(response.outputCount());
        for (int i = 0; i < response.outputCount(); i++)
        {
            final OutputTensor output = response.output(i);
            final MemorySegment data = output.data();
            outputs.add(new CachedResponse.Output(output.name(), output.dataType(), output.shape(),
                data.toArray(ValueLayout.JAVA_BYTE)));
        }
        cache.insert(pending.cacheKey, CachedResponse.of(outputs));
        stats.cacheMiss(pending.cacheLookupNs + clock.nanoTime() - start);
    }
}
