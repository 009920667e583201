package io.ingot.ratelimit;

import io.ingot.api.RateLimitResource;
import io.ingot.config.proto.ModelRateLimiter;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The core's rate limiter in Triton's {@code execution_count} mode: an instance executes a batch only while it holds
 * every resource its {@code instance_group.rate_limiter} names, across every model of the core.
 *
 * <p><b>Who goes next.</b> An instance whose batch is formed is <em>staged</em>. Staged instances are ordered by
 * {@code executions × max(priority, 1)}, lowest first (an instance of priority 2 gets about half the turns of one
 * of priority 1 when both wait), and only the first may take its resources: when they are not all free nothing
 * runs until a release (Triton's strict head of line, so a large demand is not starved by small ones). Unlike
 * Triton, which grants one instance per event, a release or a staging grants every instance at the head that fits,
 * one after another.
 *
 * <p><b>Liveness.</b> An instance holds resources only while it executes, takes all of them at once, and gives them
 * back when its batch is done, so no set of instances waits on each other. Each capacity covers the largest single
 * demand ({@link ResourcePools}), so the first staged instance always runs once the executing ones finish.
 *
 * <p>Thread-safe: one lock guards the pools and the staged set. It is held for a few comparisons and counter updates
 * per staging and release, never while anything executes, and no user code runs under it (a grant only sets a flag
 * and rings the instance's bell). With the limiter off the core makes none, and instances take no lock at all.
 */
public final class RateLimiter
{
    private final ReentrantLock lock = new ReentrantLock();
    private final ResourcePools pools;
    private final PriorityQueue<InstanceClaim> staged = new PriorityQueue<>(InstanceClaim.ORDER);
    private long stagings;

    /**
     * @param resources the {@code --rate-limit-resource} counts (empty: each resource has what its largest demand
     *                  asks)
     */
    public RateLimiter(final List<RateLimitResource> resources)
    {
        this.pools = new ResourcePools(resources);
    }

    /**
     * Registers an instance (when its model loads).
     *
     * @param model    the model's name
     * @param instance the instance's name
     * @param config   its group's {@code rate_limiter} (the default instance: no resources, priority 1)
     * @param device   its device (0 for a CPU instance, as in Triton)
     * @return its claim
     * @throws io.ingot.api.InferenceException INVALID_ARG with Triton's message when the resources cannot serve it
     *                                         (the model then fails to load)
     */
    public InstanceClaim register(final String model, final String instance, final ModelRateLimiter config,
        final int device)
    {
        final InstanceClaim claim = new InstanceClaim(this, model, instance, config.getPriority());
        final var demand = ResourcePools.demandOf(config, device);
        lock.lock();
        try
        {
            pools.add(claim, demand);
        }
        finally
        {
            lock.unlock();
        }
        return claim;
    }

    /**
     * @return each resource pool an instance draws on — {@code "GLOBAL/name"} or {@code "<device>/name"} — with its
     *     capacity and the units taken now (for logs and tests)
     */
    public Map<String, long[]> pools()
    {
        lock.lock();
        try
        {
            final Map<String, long[]> result = new LinkedHashMap<>();
            pools.snapshot().forEach((key, counts) -> result.put((key.device() == ResourcePools.GLOBAL ? "GLOBAL"
                : Integer.toString(key.device())) + "/" + key.name(), counts));
            return result;
        }
        finally
        {
            lock.unlock();
        }
    }

    boolean stage(final InstanceClaim claim)
    {
        lock.lock();
        try
        {
            if (claim.isGranted() || claim.isStaged())
            {
                return claim.isGranted();  // already waiting (staged again by its last release), or granted
            }
            claim.staged(stagings++);
            staged.add(claim);
            grantHeads();
            return claim.isGranted();
        }
        finally
        {
            lock.unlock();
        }
    }

    void release(final InstanceClaim claim, final boolean again)
    {
        lock.lock();
        try
        {
            claim.released();
            if (again)
            {
                claim.staged(stagings++);
                staged.add(claim);
            }
            grantHeads();
        }
        finally
        {
            lock.unlock();
        }
    }

    void withdraw(final InstanceClaim claim)
    {
        if (!claim.isWaiting() && !claim.isGranted())
        {
            return;  // the common case: nothing reserved, no lock
        }
        lock.lock();
        try
        {
            leave(claim);
            grantHeads();
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Lock held: the instance leaves the staged set, or gives back what it was granted. */
    private void leave(final InstanceClaim claim)
    {
        if (claim.isStaged())
        {
            staged.remove(claim);
            claim.withdrawn();
        }
        if (claim.isGranted())
        {
            claim.returned();
        }
    }

    void unregister(final InstanceClaim claim)
    {
        lock.lock();
        try
        {
            leave(claim);
            pools.remove(claim);
            grantHeads();
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Lock held: grants the first staged instance while its resources are free (strict head of line). */
    private void grantHeads()
    {
        InstanceClaim head;
        while ((head = staged.peek()) != null && ResourcePools.fits(head))
        {
            staged.poll();
            head.grant();
        }
    }
}
