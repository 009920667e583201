package io.ingot.trt.gpu;

import io.ingot.cuda.CudaException;
import io.ingot.cuda.NativeLibraryNotFoundException;

/**
 * A GPU backend could not use its device. {@link #isNoUsableGpu()} separates "this machine has no usable GPU" (no
 * CUDA runtime library, no driver, no device) from other failures; the message says which and carries CUDA's
 * reason.
 */
public final class GpuUnavailableException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final boolean noUsableGpu;

    /**
     * @param message     what failed and why
     * @param noUsableGpu true when the machine has no usable GPU
     * @param cause       the CUDA failure
     */
    public GpuUnavailableException(final String message, final boolean noUsableGpu, final Throwable cause)
    {
        super(message, cause);
        this.noUsableGpu = noUsableGpu;
    }

    /** @return true when the machine has no usable GPU (as opposed to, e.g., a device index that does not exist) */
    public boolean isNoUsableGpu()
    {
        return noUsableGpu;
    }

    /**
     * @param deviceId the device that was asked for
     * @param failure  what CUDA (or the library loader) threw
     * @return the exception to throw
     */
    static GpuUnavailableException wrap(final int deviceId, final RuntimeException failure)
    {
        if (failure instanceof NativeLibraryNotFoundException)
        {
            return new GpuUnavailableException("no usable GPU was found: the CUDA runtime library is missing ("
                + failure.getMessage() + ")", true, failure);
        }
        if (failure instanceof CudaException cuda && cuda.isNoUsableGpu())
        {
            return new GpuUnavailableException("no usable GPU was found (" + cuda.getMessage() + ")", true, failure);
        }
        return new GpuUnavailableException("cannot use GPU " + deviceId + ": " + failure.getMessage(), false,
            failure);
    }
}
