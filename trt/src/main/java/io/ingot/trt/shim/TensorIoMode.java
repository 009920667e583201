package io.ingot.trt.shim;

/** Whether an engine tensor is an input or an output ({@code nvinfer1::TensorIOMode}). */
public enum TensorIoMode
{
    /** kNONE: not an I/O tensor. */
    NONE,
    /** kINPUT. */
    INPUT,
    /** kOUTPUT. */
    OUTPUT;

    /**
     * @param code TensorRT's value
     * @return the mode
     * @throws TrtException for an unknown value
     */
    public static TensorIoMode of(final int code)
    {
        return switch (code)
        {
            case 0 -> NONE;
            case 1 -> INPUT;
            case 2 -> OUTPUT;
            default -> throw new TrtException("unknown TensorRT TensorIOMode value " + code);
        };
    }
}
