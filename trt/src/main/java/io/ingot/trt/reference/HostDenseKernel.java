package io.ingot.trt.reference;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link DenseKernel} over host memory, for running {@code cublas_mlp}'s logic with
 * {@link io.ingot.trt.gpu.HostMemoryOps} where there is no GPU (tests). Plain loops in FP32, accumulating in the
 * order {@code bias + sum_k in[r][k] * w[k][n]}; not tuned.
 */
public final class HostDenseKernel implements DenseKernel
{
    @Override
    public void dense(final MemorySegment in, final MemorySegment weights, final MemorySegment bias,
        final MemorySegment ones, final MemorySegment out, final int rows, final int k, final int n)
    {
        for (int r = 0; r < rows; r++)
        {
            for (int j = 0; j < n; j++)
            {
                float sum = bias.getAtIndex(ValueLayout.JAVA_FLOAT, j) * ones.getAtIndex(ValueLayout.JAVA_FLOAT, r);
                for (int i = 0; i < k; i++)
                {
                    sum += in.getAtIndex(ValueLayout.JAVA_FLOAT, (long) r * k + i)
                        * weights.getAtIndex(ValueLayout.JAVA_FLOAT, (long) i * n + j);
                }
                out.setAtIndex(ValueLayout.JAVA_FLOAT, (long) r * n + j, sum);
            }
        }
    }

    @Override
    public void close()
    {
        // Nothing held.
    }
}
