package io.ingot.tensor;

/**
 * Tensor element types, named as Triton's API and the KServe v2 protocol name them.
 *
 * <p>{@link #BYTES} holds variable-length elements, each a 4-byte little-endian length followed by its bytes; its
 * {@link #byteSize()} is {@code -1}. Every other type has a fixed element size. Immutable and thread-safe.
 */
public enum DataType
{
    BOOL(1, 1),
    UINT8(1, 2),
    UINT16(2, 3),
    UINT32(4, 4),
    UINT64(8, 5),
    INT8(1, 6),
    INT16(2, 7),
    INT32(4, 8),
    INT64(8, 9),
    FP16(2, 10),
    FP32(4, 11),
    FP64(8, 12),
    BYTES(-1, 13),
    BF16(2, 14);

    private static final DataType[] BY_CONFIG_NUMBER = new DataType[15];

    static
    {
        for (final DataType type : values())
        {
            BY_CONFIG_NUMBER[type.configNumber] = type;
        }
    }

    private final int byteSize;
    private final int configNumber;

    DataType(final int byteSize, final int configNumber)
    {
        this.byteSize = byteSize;
        this.configNumber = configNumber;
    }

    /** @return bytes per element, or {@code -1} for {@link #BYTES}. */
    public int byteSize()
    {
        return byteSize;
    }

    /**
     * @return the number of this type in Triton's {@code model_config.proto} {@code DataType} enum ({@code TYPE_*}).
     */
    public int configNumber()
    {
        return configNumber;
    }

    /** @return the protocol name ("FP32", "BYTES", ...). */
    public String wireName()
    {
        return name();
    }

    /**
     * Maps a config enum number ({@code TYPE_FP32} = 11, ...) to a type.
     *
     * @param number the {@code DataType} enum number of {@code model_config.proto}
     * @return the type, or {@code null} for {@code TYPE_INVALID} or an unknown number
     */
    public static DataType fromConfigNumber(final int number)
    {
        return number > 0 && number < BY_CONFIG_NUMBER.length ? BY_CONFIG_NUMBER[number] : null;
    }

    /**
     * Parses a protocol name ("FP32", "BYTES", ...).
     *
     * @param name the name as the KServe v2 protocol writes it
     * @return the type, or {@code null} when the name is not a datatype
     */
    public static DataType fromWireName(final String name)
    {
        if (name == null)
        {
            return null;
        }
        for (final DataType type : values())
        {
            if (type.name().equals(name))
            {
                return type;
            }
        }
        return null;
    }
}
