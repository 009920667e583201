package io.ingot.trt.shim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a deserialized engine consumes and produces: its I/O tensors in engine order and its optimization
 * profiles.
 *
 * @param tensors  every I/O tensor
 * @param profiles every optimization profile (at least one)
 */
public record EngineSignature(List<EngineTensor> tensors, List<OptimizationProfile> profiles)
{
    /** Copies the lists. */
    public EngineSignature
    {
        tensors = List.copyOf(tensors);
        profiles = List.copyOf(profiles);
    }

    /**
     * @param name a tensor name
     * @return the tensor, or {@code null}
     */
    public EngineTensor tensor(final String name)
    {
        for (final EngineTensor tensor : tensors)
        {
            if (tensor.name().equals(name))
            {
                return tensor;
            }
        }
        return null;
    }

    /** @return the inputs, in engine order */
    public List<EngineTensor> inputs()
    {
        return tensors.stream().filter(EngineTensor::isInput).toList();
    }

    /** @return the outputs, in engine order */
    public List<EngineTensor> outputs()
    {
        return tensors.stream().filter(tensor -> tensor.mode() == TensorIoMode.OUTPUT).toList();
    }

    /** @return true when some I/O tensor has a dynamic dimension */
    public boolean hasDynamicShapes()
    {
        return tensors.stream().anyMatch(EngineTensor::isDynamic);
    }

    /** @return tensor name to tensor, in engine order */
    public Map<String, EngineTensor> byName()
    {
        final Map<String, EngineTensor> map = new LinkedHashMap<>();
        for (final EngineTensor tensor : tensors)
        {
            map.put(tensor.name(), tensor);
        }
        return map;
    }

    /**
     * The largest batch every input of a profile allows: the smallest MAX of dimension 0 over the inputs.
     *
     * @param profile a profile index
     * @return that batch size, or {@code 0} when some input has rank 0
     */
    public long maxBatch(final int profile)
    {
        long max = Long.MAX_VALUE;
        for (final EngineTensor input : inputs())
        {
            final ShapeRange range = profiles.get(profile).range(input.name());
            if (range == null || range.rank() == 0)
            {
                return 0;
            }
            max = Math.min(max, range.maxDim(0));
        }
        return max == Long.MAX_VALUE ? 0 : max;
    }

    /**
     * The smallest batch every input of a profile allows: the largest MIN of dimension 0 over the inputs.
     *
     * @param profile a profile index
     * @return that batch size
     */
    public long minBatch(final int profile)
    {
        long min = 0;
        for (final EngineTensor input : inputs())
        {
            final ShapeRange range = profiles.get(profile).range(input.name());
            if (range != null && range.rank() > 0)
            {
                min = Math.max(min, range.minDim(0));
            }
        }
        return min;
    }
}
