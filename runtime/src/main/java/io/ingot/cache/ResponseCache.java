package io.ingot.cache;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Triton's {@code local} response cache: one store the whole core shares, bounded in bytes ({@code --cache-config
 * local,size=N}), least recently used entries evicted first. An entry larger than the whole cache is not kept.
 *
 * <p>Thread-safe: lookups and inserts take one short lock (an access-ordered map's read is a write). Only models
 * with {@code response_cache { enable: true }} touch it, so no other model's requests pay for it.
 */
public final class ResponseCache
{
    private final long capacityBytes;
    private final LinkedHashMap<Long, CachedResponse> entries = new LinkedHashMap<>(64, 0.75f, true);
    private long usedBytes;
    private long evictions;

    /**
     * @param capacityBytes the most bytes the entries may count together, {@code > 0}
     */
    public ResponseCache(final long capacityBytes)
    {
        if (capacityBytes <= 0)
        {
            throw new IllegalArgumentException("the response cache size must be a positive number of bytes, was "
                + capacityBytes);
        }
        this.capacityBytes = capacityBytes;
    }

    /**
     * @param key a request's key ({@link CacheKey})
     * @return the cached response, or {@code null}
     */
    public synchronized CachedResponse lookup(final long key)
    {
        return entries.get(key);
    }

    /**
     * Keeps a response, evicting the least recently used entries until it fits.
     *
     * @param key      its request's key
     * @param response the response
     * @return whether it was kept (false when it is larger than the whole cache)
     */
    public synchronized boolean insert(final long key, final CachedResponse response)
    {
        if (response.bytes() > capacityBytes)
        {
            return false;
        }
        final CachedResponse previous = entries.remove(key);
        if (previous != null)
        {
            usedBytes -= previous.bytes();
        }
        final Iterator<Map.Entry<Long, CachedResponse>> oldest = entries.entrySet().iterator();
        while (usedBytes + response.bytes() > capacityBytes && oldest.hasNext())
        {
            usedBytes -= oldest.next().getValue().bytes();
            oldest.remove();
            evictions++;
        }
        entries.put(key, response);
        usedBytes += response.bytes();
        return true;
    }

    /** @return the bytes the entries count now */
    public synchronized long usedBytes()
    {
        return usedBytes;
    }

    /** @return the number of entries */
    public synchronized int size()
    {
        return entries.size();
    }

    /** @return how many entries were evicted to make room */
    public synchronized long evictions()
    {
        return evictions;
    }

    /** @return the capacity in bytes */
    public long capacityBytes()
    {
        return capacityBytes;
    }
}
