package io.ingot.trt.reference;

import io.ingot.cuda.Cublas;
import io.ingot.trt.gpu.DeviceStream;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link DenseKernel} with cuBLAS: two {@code cublasSgemm_v2} calls on the instance's stream. cuBLAS is
 * column-major; a row-major {@code rows x n} matrix is a column-major {@code n x rows} one, so
 * {@code out = in . W} is computed as {@code out^T = W^T . in^T}: {@code Sgemm(N, N, n, rows, k, 1, W, n, in, k,
 * beta, out, n)}. The bias goes first, as the rank-1 product {@code bias^T . ones} with {@code beta = 0}, then the
 * product adds onto it with {@code beta = 1}: no element-wise kernel is needed (cuBLAS has none, and this module
 * compiles no CUDA code).
 */
public final class CublasDenseKernel implements DenseKernel
{
    private final MemorySegment handle;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment one;
    private final MemorySegment zero;
    private boolean closed;

    /**
     * Creates a cuBLAS handle on the stream's device and binds it to the stream.
     *
     * @param stream the instance's stream; its device is made current
     */
    public CublasDenseKernel(final DeviceStream stream)
    {
        stream.makeCurrent();
        this.handle = Cublas.cublasCreate_v2();
        try
        {
            Cublas.cublasSetStream_v2(handle, stream.handle());
        }
        catch (final RuntimeException failure)
        {
            Cublas.cublasDestroy_v2(handle);
            arena.close();
            throw failure;
        }
        this.one = arena.allocateFrom(ValueLayout.JAVA_FLOAT, 1f);
        this.zero = arena.allocateFrom(ValueLayout.JAVA_FLOAT, 0f);
    }

    @Override
    public void dense(final MemorySegment in, final MemorySegment weights, final MemorySegment bias,
        final MemorySegment ones, final MemorySegment out, final int rows, final int k, final int n)
    {
        Cublas.cublasSgemm_v2(handle, Cublas.CUBLAS_OP_N, Cublas.CUBLAS_OP_N, n, rows, 1, one, bias, n, ones, 1,
            zero, out, n);
        Cublas.cublasSgemm_v2(handle, Cublas.CUBLAS_OP_N, Cublas.CUBLAS_OP_N, n, rows, k, one, weights, n, in, k,
            one, out, n);
    }

    @Override
    public synchronized void close()
    {
        if (!closed)
        {
            closed = true;
            Cublas.cublasDestroy_v2(handle);
            arena.close();
        }
    }
}
