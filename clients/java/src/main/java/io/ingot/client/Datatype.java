package io.ingot.client;

/**
 * The KServe v2 tensor datatypes, by the names the protocol uses ({@code "FP32"}), with their element sizes. The
 * clients take datatypes as those strings, as Triton's do; this is how they check and convert them.
 */
public enum Datatype
{
    /** One byte per element, 0 or 1. */
    BOOL(1),
    /** Unsigned 8-bit integers. */
    UINT8(1),
    /** Unsigned 16-bit integers. */
    UINT16(2),
    /** Unsigned 32-bit integers. */
    UINT32(4),
    /** Unsigned 64-bit integers. */
    UINT64(8),
    /** Signed 8-bit integers. */
    INT8(1),
    /** Signed 16-bit integers. */
    INT16(2),
    /** Signed 32-bit integers. */
    INT32(4),
    /** Signed 64-bit integers. */
    INT64(8),
    /** IEEE half precision. */
    FP16(2),
    /** IEEE single precision. */
    FP32(4),
    /** IEEE double precision. */
    FP64(8),
    /** bfloat16: the upper half of an FP32. */
    BF16(2),
    /** Byte strings, each serialized as a 4-byte little-endian length and its bytes. */
    BYTES(-1);

    private final int elementBytes;

    Datatype(final int elementBytes)
    {
        this.elementBytes = elementBytes;
    }

    /** @return bytes per element, or -1 for {@link #BYTES} (variable) */
    public int elementBytes()
    {
        return elementBytes;
    }

    /**
     * @param name a protocol datatype name
     * @return its datatype
     * @throws InferenceServerException {@code datatype 'X' is invalid} (the C++ client's text)
     */
    public static Datatype of(final String name)
    {
        if (name != null)
        {
            for (final Datatype datatype : values())
            {
                if (datatype.name().equals(name))
                {
                    return datatype;
                }
            }
        }
        throw new InferenceServerException("datatype '" + name + "' is invalid");
    }
}
