package io.ingot.ratelimit;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.RateLimitResource;
import io.ingot.config.proto.ModelRateLimiter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The core's rate-limiter resources, as Triton's {@code RateLimiter::ResourceManager} keeps them: one pool per
 * resource name and device, plus one per name for the resources configurations mark {@code global}. A pool's
 * capacity is the most units any registered instance asks for, or, once any {@code --rate-limit-resource} is given,
 * the count given for it (a resource given for no device of its instances has 0, and then the instance fails to
 * register with Triton's message). Capacities are computed again on every registration and removal.
 *
 * <p>Not thread-safe: the {@link RateLimiter} guards it with its lock.
 */
final class ResourcePools
{
    /** Device key of Triton's global resources ({@code GLOBAL_RESOURCE_KEY}). */
    static final int GLOBAL = -2;

    /** Triton orders its resource maps by device key (global first), then by name: its first error is ours. */
    private static final Comparator<Pool.Key> ORDER = Comparator.comparingInt(Pool.Key::device)
        .thenComparing(Pool.Key::name);

    /** Explicit counts by device ({@link RateLimitResource#EVERY_DEVICE} included), then name. */
    private final Map<Integer, Map<String, Long>> explicit = new HashMap<>();
    private final Map<Pool.Key, Pool> pools = new HashMap<>();
    private final List<InstanceClaim> claims = new ArrayList<>();

    /**
     * @param resources the {@code --rate-limit-resource} counts; a name given twice for one device keeps the smaller
     *                  count, as Triton's {@code AddRateLimiterResource} does
     */
    ResourcePools(final List<RateLimitResource> resources)
    {
        for (final RateLimitResource resource : resources)
        {
            explicit.computeIfAbsent(resource.device(), device -> new HashMap<>())
                .merge(resource.name(), resource.count(), Math::min);
        }
    }

    /**
     * What one instance holds while it executes: each resource's pool (its device's, or the global one) and units.
     * A name listed twice with the same scope keeps its last count, as Triton's map does.
     *
     * @param config the instance group's {@code rate_limiter}
     * @param device the instance's device (0 for a CPU instance, as in Triton)
     * @return the demand by pool, in Triton's order
     */
    static Map<Pool.Key, Long> demandOf(final ModelRateLimiter config, final int device)
    {
        final Map<Pool.Key, Long> demand = new TreeMap<>(ORDER);
        for (final ModelRateLimiter.Resource resource : config.getResourcesList())
        {
            demand.put(new Pool.Key(resource.getGlobal() ? GLOBAL : device, resource.getName()),
                Integer.toUnsignedLong(resource.getCount()));
        }
        return demand;
    }

    /**
     * Adds an instance and recomputes the capacities; on a conflict leaves everything as it was.
     *
     * @param claim  the instance
     * @param demand its {@link #demandOf demand}
     * @throws InferenceException INVALID_ARG with Triton's message when a resource's count cannot cover every
     *                            instance, or a resource is both global and per device
     */
    void add(final InstanceClaim claim, final Map<Pool.Key, Long> demand)
    {
        final Pool[] held = new Pool[demand.size()];
        final long[] units = new long[demand.size()];
        int i = 0;
        for (final Map.Entry<Pool.Key, Long> entry : demand.entrySet())
        {
            held[i] = pools.computeIfAbsent(entry.getKey(), Pool::new);
            units[i++] = entry.getValue();
        }
        claim.hold(held, units);
        claims.add(claim);
        try
        {
            recompute();
        }
        catch (final InferenceException ex)
        {
            claims.remove(claim);
            recompute();
            throw ex;
        }
    }

    /**
     * Removes an instance (not executing) and recomputes the capacities.
     *
     * @param claim the instance
     */
    void remove(final InstanceClaim claim)
    {
        if (claims.remove(claim))
        {
            recompute();
        }
    }

    /**
     * @param claim an instance
     * @return whether every pool it draws on has its units free now
     */
    static boolean fits(final InstanceClaim claim)
    {
        final Pool[] held = claim.pools();
        final long[] units = claim.units();
        for (int i = 0; i < held.length; i++)
        {
            if (held[i].allocated + units[i] > held[i].capacity)
            {
                return false;
            }
        }
        return true;
    }

    /** @param claim an instance that {@link #fits} takes its units */
    static void take(final InstanceClaim claim)
    {
        final Pool[] held = claim.pools();
        final long[] units = claim.units();
        for (int i = 0; i < held.length; i++)
        {
            held[i].allocated += units[i];
        }
    }

    /** @param claim an instance that executed gives its units back */
    static void give(final InstanceClaim claim)
    {
        final Pool[] held = claim.pools();
        final long[] units = claim.units();
        for (int i = 0; i < held.length; i++)
        {
            held[i].allocated -= units[i];
        }
    }

    /**
     * @return every pool an instance draws on, with its capacity and the units taken now, in Triton's order (for
     *     logs and tests)
     */
    Map<Pool.Key, long[]> snapshot()
    {
        final Map<Pool.Key, long[]> result = new LinkedHashMap<>();
        new TreeMap<>(maxDemand()).forEach((key, max) ->
        {
            final Pool pool = pools.get(key);
            result.put(key, new long[] {pool.capacity, pool.allocated});
        });
        return result;
    }

    /**
     * Triton's {@code ComputeResourceLimits}, then {@code ParseAndValidateExplicitResources}, then
     * {@code ValidateMaxResources}.
     */
    private void recompute()
    {
        final TreeMap<Pool.Key, Long> max = maxDemand();
        final Map<Pool.Key, Long> capacity = new HashMap<>();
        for (final Map.Entry<Pool.Key, Long> entry : max.entrySet())
        {
            final long count = explicit.isEmpty() ? entry.getValue() : explicitCount(entry.getKey());
            if (count < entry.getValue())
            {
                throw new InferenceException(ErrorCode.INVALID_ARG, "Resource count for \"" + entry.getKey().name()
                    + "\" is limited to " + count + " which will prevent scheduling of one or more model instances, "
                    + "the minimum required count is " + entry.getValue());
            }
            capacity.put(entry.getKey(), count);
        }
        for (final Pool.Key global : max.keySet())
        {
            if (global.device() != GLOBAL)
            {
                break;
            }
            for (final Pool.Key other : max.keySet())
            {
                if (other.device() != GLOBAL && other.name().equals(global.name()))
                {
                    throw new InferenceException(ErrorCode.INVALID_ARG, "Resource \"" + other.name() + "\" is present "
                        + "as both global and device-specific resource in the model configuration.");
                }
            }
        }
        for (final Map.Entry<Pool.Key, Pool> pool : pools.entrySet())
        {
            pool.getValue().capacity = capacity.getOrDefault(pool.getKey(), 0L);
        }
    }

    private TreeMap<Pool.Key, Long> maxDemand()
    {
        final TreeMap<Pool.Key, Long> max = new TreeMap<>(ORDER);
        for (final InstanceClaim claim : claims)
        {
            final Pool[] held = claim.pools();
            for (int i = 0; i < held.length; i++)
            {
                max.merge(held[i].key, claim.units()[i], Math::max);
            }
        }
        return max;
    }

    /**
     * A global resource takes the largest count given for its name on any device; a per-device one the larger of
     * its device's and the every-device count; a resource not given has none.
     */
    private long explicitCount(final Pool.Key key)
    {
        long count = 0;
        if (key.device() == GLOBAL)
        {
            for (final Map<String, Long> byName : explicit.values())
            {
                count = Math.max(count, byName.getOrDefault(key.name(), 0L));
            }
            return count;
        }
        count = explicit.getOrDefault(key.device(), Map.of()).getOrDefault(key.name(), 0L);
        return Math.max(count, explicit.getOrDefault(RateLimitResource.EVERY_DEVICE, Map.of())
            .getOrDefault(key.name(), 0L));
    }

    /** One resource's units on one device (or global). Guarded by the limiter's lock. */
    static final class Pool
    {
        /**
         * A pool's identity.
         *
         * @param device the device, or {@link #GLOBAL}
         * @param name   the resource's name
         */
        record Key(int device, String name)
        {
        }

        final Key key;
        long capacity;
        long allocated;

        Pool(final Key key)
        {
            this.key = key;
        }
    }
}
