package io.ingot.config;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * What normalization needs to know about the machine: the GPUs instances may be placed on. Triton resolves
 * {@code KIND_AUTO} and fills empty {@code gpus} lists from the same set.
 *
 * @param gpuIds the usable GPU device ids, ascending and distinct; empty on a machine without a (usable) GPU
 */
public record NormalizeContext(List<Integer> gpuIds)
{
    /**
     * @param gpuIds the usable GPU device ids; sorted and de-duplicated here
     * @throws IllegalArgumentException when an id is negative
     */
    public NormalizeContext
    {
        gpuIds = gpuIds.stream().sorted().distinct().toList();
        for (final int id : gpuIds)
        {
            if (id < 0)
            {
                throw new IllegalArgumentException("GPU ids are >= 0, got " + id);
            }
        }
    }

    /** @return a context for a machine without GPUs: {@code KIND_AUTO} groups become {@code KIND_CPU}. */
    public static NormalizeContext cpuOnly()
    {
        return new NormalizeContext(List.of());
    }

    /**
     * @param ids the usable GPU device ids
     * @return a context with those GPUs
     */
    public static NormalizeContext withGpus(final int... ids)
    {
        return new NormalizeContext(Arrays.stream(ids).boxed().toList());
    }

    /**
     * @param ids the usable GPU device ids
     * @return a context with those GPUs
     */
    public static NormalizeContext withGpus(final Collection<Integer> ids)
    {
        return new NormalizeContext(List.copyOf(ids));
    }

    /** @return whether any GPU is usable. */
    public boolean hasGpus()
    {
        return !gpuIds.isEmpty();
    }

    /**
     * @param id a GPU device id
     * @return whether that GPU is usable
     */
    public boolean hasGpu(final int id)
    {
        return gpuIds.contains(id);
    }
}
