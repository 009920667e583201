package io.ingot.client;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An output an inference request asks for, as Triton's {@code InferRequestedOutput}: by name, as binary data (the
 * default) or JSON over HTTP, optionally as the top {@code classCount} classifications (Triton's classification
 * extension), optionally written into a registered shared-memory region. A request that names no output gets every
 * output, in binary. Not thread-safe: set it up on one thread, then hand it to a client call.
 */
public final class InferRequestedOutput
{
    private final String name;
    private final boolean binaryData;
    private final int classCount;
    private String sharedMemoryRegion;
    private long sharedMemoryByteSize;
    private long sharedMemoryOffset;

    /** @param name the model's output name; binary data, no classification */
    public InferRequestedOutput(final String name)
    {
        this(name, true, 0);
    }

    /**
     * @param name       the model's output name
     * @param binaryData over HTTP: true for binary data after the JSON, false for JSON values (gRPC: always binary)
     * @param classCount 0 for the tensor itself, K for its top K classifications as BYTES "value:index[:label]"
     */
    public InferRequestedOutput(final String name, final boolean binaryData, final int classCount)
    {
        if (classCount < 0)
        {
            throw new InferenceServerException("class count must not be negative, was " + classCount + " for output '"
                + name + "'");
        }
        this.name = name;
        this.binaryData = binaryData;
        this.classCount = classCount;
    }

    /**
     * Asks the server to write this output into a registered system shared-memory region (Triton's
     * {@code set_shared_memory}); the response then carries no data for it.
     *
     * @param region   the name the region was registered under
     * @param byteSize room for the output in the region
     * @param offset   where the output goes in the region
     * @return this
     * @throws InferenceServerException for a classification output (Triton's text)
     */
    public InferRequestedOutput setSharedMemory(final String region, final long byteSize, final long offset)
    {
        if (classCount != 0)
        {
            throw new InferenceServerException("shared memory can't be set on classification output");
        }
        this.sharedMemoryRegion = region;
        this.sharedMemoryByteSize = byteSize;
        this.sharedMemoryOffset = offset;
        return this;
    }

    /** @return this, with the output back in the response (Triton's {@code unset_shared_memory}) */
    public InferRequestedOutput unsetSharedMemory()
    {
        this.sharedMemoryRegion = null;
        this.sharedMemoryByteSize = 0;
        this.sharedMemoryOffset = 0;
        return this;
    }

    /**
     * @param requested the outputs a request asks for
     * @return the names of those it places in shared memory, with their regions
     */
    public static Map<String, String> sharedMemoryRegions(final List<InferRequestedOutput> requested)
    {
        final Map<String, String> regions = new LinkedHashMap<>();
        for (final InferRequestedOutput output : requested)
        {
            if (output.sharedMemoryRegion != null)
            {
                regions.put(output.name, output.sharedMemoryRegion);
            }
        }
        return regions;
    }

    /** @return the output's name */
    public String name()
    {
        return name;
    }

    /** @return whether HTTP returns it as binary data */
    public boolean binaryData()
    {
        return binaryData;
    }

    /** @return the classification count, 0 for none */
    public int classCount()
    {
        return classCount;
    }

    /** @return the shared-memory region it goes to, or null */
    public String sharedMemoryRegion()
    {
        return sharedMemoryRegion;
    }

    /** @return its room in the region */
    public long sharedMemoryByteSize()
    {
        return sharedMemoryByteSize;
    }

    /** @return its offset in the region */
    public long sharedMemoryOffset()
    {
        return sharedMemoryOffset;
    }
}
