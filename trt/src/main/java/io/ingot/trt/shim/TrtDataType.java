package io.ingot.trt.shim;

import io.ingot.tensor.DataType;

/**
 * TensorRT's tensor element types ({@code nvinfer1::DataType}, values of TensorRT 10.16) and the Triton/Ingot
 * {@link DataType} each one is served as. Types with no Triton equivalent (FP8, INT4, FP4, E8M0) map to
 * {@code null}: a model whose I/O uses them cannot be served.
 */
public enum TrtDataType
{
    /** kFLOAT. */
    FLOAT(0, DataType.FP32, 4),
    /** kHALF. */
    HALF(1, DataType.FP16, 2),
    /** kINT8. */
    INT8(2, DataType.INT8, 1),
    /** kINT32. */
    INT32(3, DataType.INT32, 4),
    /** kBOOL. */
    BOOL(4, DataType.BOOL, 1),
    /** kUINT8. */
    UINT8(5, DataType.UINT8, 1),
    /** kFP8 (no Triton type). */
    FP8(6, null, 1),
    /** kBF16. */
    BF16(7, DataType.BF16, 2),
    /** kINT64. */
    INT64(8, DataType.INT64, 8),
    /** kINT4 (no Triton type). */
    INT4(9, null, 1),
    /** kFP4 (no Triton type; TensorRT 10.8+). */
    FP4(10, null, 1),
    /** kE8M0 (no Triton type; TensorRT 10.12+). */
    E8M0(11, null, 1);

    private static final TrtDataType[] BY_CODE = values();

    private final int code;
    private final DataType ingotType;
    private final int storageBytes;

    TrtDataType(final int code, final DataType ingotType, final int storageBytes)
    {
        this.code = code;
        this.ingotType = ingotType;
        this.storageBytes = storageBytes;
    }

    /**
     * @return bytes per element when sizing buffers: exact for byte-sized types, an upper bound (1) for the 4-bit
     *         types INT4 and FP4
     */
    public int storageBytes()
    {
        return storageBytes;
    }

    /** @return TensorRT's numeric value */
    public int code()
    {
        return code;
    }

    /** @return the Triton type it is served as, or {@code null} when Triton has none */
    public DataType ingotType()
    {
        return ingotType;
    }

    /** @return TensorRT's own name ({@code kFLOAT}, ...), for messages */
    public String trtName()
    {
        return "k" + name();
    }

    /**
     * @param code TensorRT's numeric value
     * @return the type
     * @throws TrtException for a value this binding does not know (a newer TensorRT)
     */
    public static TrtDataType of(final int code)
    {
        if (code < 0 || code >= BY_CODE.length)
        {
            throw new TrtException("unknown TensorRT DataType value " + code
                + " (this binding knows 0..11 of TensorRT 10.16)");
        }
        return BY_CODE[code];
    }
}
