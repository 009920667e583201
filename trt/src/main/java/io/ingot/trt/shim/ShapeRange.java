package io.ingot.trt.shim;

import java.util.Objects;

/**
 * The MIN, OPT and MAX shapes an optimization profile allows for one input.
 *
 * @param min smallest allowed dimensions
 * @param opt the dimensions TensorRT optimized for
 * @param max largest allowed dimensions
 */
public record ShapeRange(long[] min, long[] opt, long[] max)
{
    /**
     * Validates and copies the shapes.
     *
     * @throws IllegalArgumentException when the ranks differ
     */
    public ShapeRange
    {
        min = Objects.requireNonNull(min, "min").clone();
        opt = Objects.requireNonNull(opt, "opt").clone();
        max = Objects.requireNonNull(max, "max").clone();
        if (min.length != opt.length || min.length != max.length)
        {
            throw new IllegalArgumentException("profile shapes of different ranks: " + Shapes.format(min) + ", "
                + Shapes.format(opt) + ", " + Shapes.format(max));
        }
    }

    /** @return a copy of the MIN shape */
    @Override
    public long[] min()
    {
        return min.clone();
    }

    /** @return a copy of the OPT shape */
    @Override
    public long[] opt()
    {
        return opt.clone();
    }

    /** @return a copy of the MAX shape */
    @Override
    public long[] max()
    {
        return max.clone();
    }

    /** @return the rank */
    public int rank()
    {
        return min.length;
    }

    /**
     * @param index dimension index
     * @return the MIN value of that dimension
     */
    public long minDim(final int index)
    {
        return min[index];
    }

    /**
     * @param index dimension index
     * @return the MAX value of that dimension
     */
    public long maxDim(final int index)
    {
        return max[index];
    }

    /**
     * @param shape dimensions to test
     * @param rank  how many of them count
     * @return true when the rank matches and every dimension lies within MIN..MAX
     */
    public boolean contains(final long[] shape, final int rank)
    {
        if (rank != min.length)
        {
            return false;
        }
        for (int i = 0; i < rank; i++)
        {
            if (shape[i] < min[i] || shape[i] > max[i])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @param shape dimensions inside this range
     * @param rank  how many of them count
     * @return the sum of absolute differences to the OPT shape: how far from its best case the profile would run
     */
    public long distanceToOpt(final long[] shape, final int rank)
    {
        long distance = 0;
        for (int i = 0; i < rank; i++)
        {
            distance += Math.abs(shape[i] - opt[i]);
        }
        return distance;
    }

    @Override
    public String toString()
    {
        return "min " + Shapes.format(min) + " opt " + Shapes.format(opt) + " max " + Shapes.format(max);
    }
}
