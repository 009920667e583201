package io.ingot.cuda;

import java.util.Objects;

/**
 * A CUDA runtime call returned an error ({@code cudaError_t} other than {@code cudaSuccess}). Carries the call, the
 * numeric code and CUDA's own name and description of it; {@link #isNoUsableGpu()} separates "this machine has no
 * usable GPU" (no driver, a stub driver, no device, a driver/runtime mismatch) from real failures.
 */
public final class CudaException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final String call;
    private final int code;
    private final String errorName;
    private final String errorDescription;

    /**
     * @param call             the CUDA function that failed, e.g. {@code "cudaMalloc"}
     * @param code             the {@code cudaError_t} value it returned (non-zero)
     * @param errorName        CUDA's name for the code ({@code cudaGetErrorName}), e.g.
     *                         {@code cudaErrorMemoryAllocation}
     * @param errorDescription CUDA's description of the code ({@code cudaGetErrorString})
     */
    public CudaException(final String call, final int code, final String errorName, final String errorDescription)
    {
        super(describe(call, code, errorName, errorDescription));
        this.call = Objects.requireNonNull(call, "call");
        this.code = code;
        this.errorName = Objects.requireNonNull(errorName, "errorName");
        this.errorDescription = Objects.requireNonNull(errorDescription, "errorDescription");
    }

    /** @return the CUDA function that failed */
    public String call()
    {
        return call;
    }

    /** @return the {@code cudaError_t} value */
    public int code()
    {
        return code;
    }

    /** @return CUDA's name for the code, e.g. {@code cudaErrorInsufficientDriver} */
    public String errorName()
    {
        return errorName;
    }

    /** @return CUDA's description of the code */
    public String errorDescription()
    {
        return errorDescription;
    }

    /**
     * @return true when the error means this machine has no usable GPU: {@code cudaErrorStubLibrary} (34),
     *         {@code cudaErrorInsufficientDriver} (35), {@code cudaErrorNoDevice} (100) or
     *         {@code cudaErrorSystemDriverMismatch} (803)
     */
    public boolean isNoUsableGpu()
    {
        return isNoUsableGpu(code);
    }

    /**
     * @param code a {@code cudaError_t} value
     * @return true when {@code code} means this machine has no usable GPU (see {@link #isNoUsableGpu()})
     */
    public static boolean isNoUsableGpu(final int code)
    {
        return noUsableGpuHint(code) != null;
    }

    private static String noUsableGpuHint(final int code)
    {
        return switch (code)
        {
            case CudaRuntime.cudaErrorStubLibrary ->
                "the libcuda.so found is the toolkit's stub library, not a real NVIDIA driver "
                    + "(remove the stubs folder from LD_LIBRARY_PATH)";
            case CudaRuntime.cudaErrorInsufficientDriver ->
                "no NVIDIA driver is installed, or it is older than this CUDA runtime (CUDA 13 needs driver 580 or"
                    + " newer)";
            case CudaRuntime.cudaErrorNoDevice ->
                "the NVIDIA driver is installed but reports no CUDA-capable device (check CUDA_VISIBLE_DEVICES)";
            case CudaRuntime.cudaErrorSystemDriverMismatch ->
                "the NVIDIA kernel module and the user-mode driver (libcuda.so) have different versions "
                    + "(reboot or reinstall the driver)";
            default -> null;
        };
    }

    private static String describe(final String call, final int code, final String name, final String description)
    {
        final String text = call + " failed: " + name + " (" + code + "): " + description;
        final String hint = noUsableGpuHint(code);
        return hint == null ? text : text + ". No usable GPU: " + hint + ".";
    }
}
