package io.ingot.trt.shim;

/**
 * Memory layouts of engine I/O tensors ({@code nvinfer1::TensorFormat}). Ingot serves only {@link #LINEAR}
 * (row-major, what Triton's protocol carries); the vectorized formats need a reformat that belongs in the engine
 * (build it with linear I/O: {@code trtexec --inputIOFormats/--outputIOFormats=...:chw}).
 */
public enum TrtTensorFormat
{
    /** kLINEAR: row-major. */
    LINEAR,
    /** kCHW2. */
    CHW2,
    /** kHWC8. */
    HWC8,
    /** kCHW4. */
    CHW4,
    /** kCHW16. */
    CHW16,
    /** kCHW32. */
    CHW32,
    /** kDHWC8. */
    DHWC8,
    /** kCDHW32. */
    CDHW32,
    /** kHWC. */
    HWC,
    /** kDLA_LINEAR. */
    DLA_LINEAR,
    /** kDLA_HWC4. */
    DLA_HWC4,
    /** kHWC16. */
    HWC16,
    /** kDHWC. */
    DHWC;

    private static final TrtTensorFormat[] BY_CODE = values();

    /**
     * @param code TensorRT's value
     * @return the format
     * @throws TrtException for an unknown value
     */
    public static TrtTensorFormat of(final int code)
    {
        if (code < 0 || code >= BY_CODE.length)
        {
            throw new TrtException("unknown TensorRT TensorFormat value " + code);
        }
        return BY_CODE[code];
    }
}
