package io.ingot.ipc;

/**
 * Tensor element types as they travel in IPC frames: the code is the number of Triton's
 * {@code model_config.proto} {@code TYPE_*} enum, so that both sides of the transport name types the same way
 * without the ring module depending on the runtime.
 */
public enum IpcDataType
{
    BOOL(1, 1),
    UINT8(2, 1),
    UINT16(3, 2),
    UINT32(4, 4),
    UINT64(5, 8),
    INT8(6, 1),
    INT16(7, 2),
    INT32(8, 4),
    INT64(9, 8),
    FP16(10, 2),
    FP32(11, 4),
    FP64(12, 8),
    /** Variable-length elements: each a little-endian uint32 length, then its bytes. */
    BYTES(13, -1),
    BF16(14, 2);

    private static final IpcDataType[] BY_CODE = new IpcDataType[15];

    static
    {
        for (final IpcDataType type : values())
        {
            BY_CODE[type.code] = type;
        }
    }

    private final int code;
    private final int byteSize;

    IpcDataType(final int code, final int byteSize)
    {
        this.code = code;
        this.byteSize = byteSize;
    }

    /** @return the code written in frames (Triton's {@code TYPE_*} number). */
    public int code()
    {
        return code;
    }

    /** @return bytes per element, or {@code -1} for {@link #BYTES}. */
    public int byteSize()
    {
        return byteSize;
    }

    /**
     * @param code a datatype code from a frame
     * @return the type, or {@code null} when the code names none
     */
    public static IpcDataType fromCode(final int code)
    {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
