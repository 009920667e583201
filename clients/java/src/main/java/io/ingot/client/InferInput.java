package io.ingot.client;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * One input of an inference request, as Triton's {@code InferInput}: a name, a shape and a datatype, and either its
 * data or the place in a registered shared-memory region where the server finds it. The data is taken from a Java
 * array of the datatype's element type (checked against the datatype and the shape, with Triton's messages), from
 * raw little-endian bytes, or from strings for {@code BYTES}. Over HTTP it travels as binary data after the JSON
 * header (the default, Triton's {@code binary_data=True}) or as JSON numbers; over gRPC always as
 * {@code raw_input_contents}. Not thread-safe: fill it on one thread, then hand it to a client call.
 */
public final class InferInput
{
    private final String name;
    private final String datatype;
    private long[] shape;
    private byte[] data;
    private boolean binaryData = true;
    private String sharedMemoryRegion;
    private long sharedMemoryByteSize;
    private long sharedMemoryOffset;

    /**
     * @param name     the model's input name
     * @param shape    the input's shape, batch dimension included where the model batches
     * @param datatype the protocol's datatype name ({@code "FP32"}, {@code "BYTES"}, ...)
     */
    public InferInput(final String name, final long[] shape, final String datatype)
    {
        this.name = name;
        this.shape = shape.clone();
        this.datatype = datatype;
    }

    /** @return the input's name */
    public String name()
    {
        return name;
    }

    /** @return the datatype name */
    public String datatype()
    {
        return datatype;
    }

    /** @return a copy of the shape */
    public long[] shape()
    {
        return shape.clone();
    }

    /**
     * @param newShape the shape to send instead
     * @return this
     */
    public InferInput setShape(final long... newShape)
    {
        this.shape = newShape.clone();
        return this;
    }

    /**
     * Binary FP32 (or FP16/BF16, converted) data.
     *
     * @param values row-major elements, as many as the shape holds
     * @return this
     */
    public InferInput setData(final float[] values)
    {
        return setData(values, true);
    }

    /**
     * @param values     row-major elements, as many as the shape holds
     * @param binaryData over HTTP: true sends them as binary data, false as JSON numbers
     * @return this
     */
    public InferInput setData(final float[] values, final boolean binaryData)
    {
        final Datatype type = expect("FP32", "float[]", Set.of(Datatype.FP32, Datatype.FP16, Datatype.BF16));
        return set(TensorBytes.of(values, type), values.length, binaryData);
    }

    /** @return this, with FP64 data */
    public InferInput setData(final double[] values, final boolean binaryData)
    {
        expect("FP64", "double[]", Set.of(Datatype.FP64));
        return set(TensorBytes.of(values), values.length, binaryData);
    }

    /** @return this, with INT32 or UINT32 data */
    public InferInput setData(final int[] values, final boolean binaryData)
    {
        expect("INT32", "int[]", Set.of(Datatype.INT32, Datatype.UINT32));
        return set(TensorBytes.of(values), values.length, binaryData);
    }

    /** @return this, with binary INT32 or UINT32 data */
    public InferInput setData(final int[] values)
    {
        return setData(values, true);
    }

    /** @return this, with INT64 or UINT64 data */
    public InferInput setData(final long[] values, final boolean binaryData)
    {
        expect("INT64", "long[]", Set.of(Datatype.INT64, Datatype.UINT64));
        return set(TensorBytes.of(values), values.length, binaryData);
    }

    /** @return this, with binary INT64 or UINT64 data */
    public InferInput setData(final long[] values)
    {
        return setData(values, true);
    }

    /** @return this, with INT16 or UINT16 data */
    public InferInput setData(final short[] values, final boolean binaryData)
    {
        expect("INT16", "short[]", Set.of(Datatype.INT16, Datatype.UINT16));
        return set(TensorBytes.of(values), values.length, binaryData);
    }

    /** @return this, with INT8 or UINT8 data */
    public InferInput setData(final byte[] values, final boolean binaryData)
    {
        expect("INT8", "byte[]", Set.of(Datatype.INT8, Datatype.UINT8));
        return set(values.clone(), values.length, binaryData);
    }

    /** @return this, with BOOL data */
    public InferInput setData(final boolean[] values, final boolean binaryData)
    {
        expect("BOOL", "boolean[]", Set.of(Datatype.BOOL));
        return set(TensorBytes.of(values), values.length, binaryData);
    }

    /**
     * BYTES elements given as strings, sent as their UTF-8 bytes.
     *
     * @param values     row-major elements
     * @param binaryData over HTTP: true sends them length-prefixed after the JSON, false as JSON strings
     * @return this
     */
    public InferInput setStrings(final List<String> values, final boolean binaryData)
    {
        final List<byte[]> elements = new ArrayList<>(values.size());
        for (final String value : values)
        {
            elements.add(value.getBytes(StandardCharsets.UTF_8));
        }
        return setBytes(elements, binaryData);
    }

    /**
     * BYTES elements given as byte arrays.
     *
     * @param values     row-major elements
     * @param binaryData over HTTP: false sends them as JSON strings, which only valid UTF-8 can be
     * @return this
     */
    public InferInput setBytes(final List<byte[]> values, final boolean binaryData)
    {
        expect("BYTES", "a list of byte strings", Set.of(Datatype.BYTES));
        return set(TensorBytes.serialize(values), values.size(), binaryData);
    }

    /**
     * The tensor's bytes as the protocol carries them (little-endian, row-major; BYTES length-prefixed), copied.
     *
     * @param bytes      the data
     * @param binaryData over HTTP: false converts them to JSON values
     * @return this
     */
    public InferInput setRaw(final byte[] bytes, final boolean binaryData)
    {
        return setRaw(ByteBuffer.wrap(bytes), binaryData);
    }

    /** @return this, with the buffer's remaining bytes (copied) as the tensor's data */
    public InferInput setRaw(final ByteBuffer bytes, final boolean binaryData)
    {
        final byte[] copy = new byte[bytes.remaining()];
        bytes.duplicate().get(copy);
        checkRawSize(copy.length);
        clearSharedMemory();
        this.data = copy;
        this.binaryData = binaryData;
        return this;
    }

    /** @return this, with the segment's bytes (copied) as the tensor's data */
    public InferInput setRaw(final MemorySegment bytes, final boolean binaryData)
    {
        final byte[] copy = bytes.toArray(ValueLayout.JAVA_BYTE);
        checkRawSize(copy.length);
        clearSharedMemory();
        this.data = copy;
        this.binaryData = binaryData;
        return this;
    }

    /**
     * Takes the data from a system shared-memory region registered with the server (Triton's
     * {@code set_shared_memory}); the data set before, if any, is dropped.
     *
     * @param region   the name the region was registered under
     * @param byteSize the tensor's size in bytes
     * @param offset   where the tensor starts in the region
     * @return this
     */
    public InferInput setSharedMemory(final String region, final long byteSize, final long offset)
    {
        this.data = null;
        this.sharedMemoryRegion = region;
        this.sharedMemoryByteSize = byteSize;
        this.sharedMemoryOffset = offset;
        return this;
    }

    /** @return the data's bytes (not a copy: do not change them), or null when none or in shared memory */
    public byte[] rawData()
    {
        return data;
    }

    /** @return whether HTTP sends the data as binary (true) or JSON (false) */
    public boolean binaryData()
    {
        return binaryData;
    }

    /** @return the shared-memory region holding the data, or null */
    public String sharedMemoryRegion()
    {
        return sharedMemoryRegion;
    }

    /** @return the data's byte size in the region */
    public long sharedMemoryByteSize()
    {
        return sharedMemoryByteSize;
    }

    /** @return the data's offset in the region */
    public long sharedMemoryOffset()
    {
        return sharedMemoryOffset;
    }

    private Datatype expect(final String natural, final String javaType, final Set<Datatype> accepted)
    {
        final Datatype type = Datatype.of(datatype);
        if (!accepted.contains(type))
        {
            // Triton's set_data_from_numpy: "got unexpected datatype {array's} from numpy array, expected {input's}".
            throw new InferenceServerException("got unexpected datatype " + natural + " from " + javaType
                + ", expected " + datatype + " for input '" + name + "'");
        }
        return type;
    }

    private InferInput set(final byte[] bytes, final int elements, final boolean binary)
    {
        final long expected = TensorBytes.elementCount(shape);
        if (expected >= 0 && expected != elements)
        {
            // Triton compares the array's shape with the input's ("got unexpected numpy array shape [..], expected
            // [..]"); a Java array has no shape, so its element count is compared with the shape's.
            throw new InferenceServerException("got unexpected element count " + elements + " for input '" + name
                + "', expected " + expected + " for shape " + Arrays.toString(shape));
        }
        clearSharedMemory();
        this.data = bytes;
        this.binaryData = binary;
        return this;
    }

    private void checkRawSize(final long byteSize)
    {
        final Datatype type = Datatype.of(datatype);
        final long elements = TensorBytes.elementCount(shape);
        if (type.elementBytes() > 0 && elements >= 0 && elements * type.elementBytes() != byteSize)
        {
            throw new InferenceServerException("got unexpected byte size " + byteSize + " for input '" + name
                + "', expected " + elements * type.elementBytes() + " for shape " + Arrays.toString(shape) + " of "
                + datatype);
        }
    }

    private void clearSharedMemory()
    {
        sharedMemoryRegion = null;
        sharedMemoryByteSize = 0;
        sharedMemoryOffset = 0;
    }
}
