package io.ingot.trt.reference;

import java.lang.foreign.MemorySegment;

/**
 * A dense layer on one instance's stream: {@code out = in . weights + ones . bias} over row-major FP32 device
 * matrices. Queued, not waited for. Used by one thread at a time.
 */
public interface DenseKernel extends AutoCloseable
{
    /**
     * Queues one dense layer.
     *
     * @param in      {@code rows x k} input
     * @param weights {@code k x n} weights
     * @param bias    {@code n} biases
     * @param ones    at least {@code rows} ones (broadcasts the bias)
     * @param out     {@code rows x n} output, not overlapping {@code in}
     * @param rows    batch rows
     * @param k       input width
     * @param n       output width
     */
    void dense(MemorySegment in, MemorySegment weights, MemorySegment bias, MemorySegment ones, MemorySegment out,
        int rows, int k, int n);

    /** Releases the kernel's resources. */
    @Override
    void close();
}
