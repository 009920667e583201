package io.ingot.trt.shim;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A deserialized TensorRT engine ({@code ICudaEngine}): its {@link #signature()} read once at construction, and a
 * factory of {@link TrtExecutionContext}s. May be shared by threads; close it after every context it made.
 */
public final class TrtCudaEngine implements AutoCloseable
{
    private final MemorySegment handle;
    private final Map<String, MemorySegment> names;
    private final EngineSignature signature;
    private boolean closed;

    TrtCudaEngine(final MemorySegment handle)
    {
        this.handle = handle;
        try
        {
            this.names = readNames(handle);
            this.signature = readSignature(handle, names);
        }
        catch (final RuntimeException failure)
        {
            TrtShim.engineDestroy(handle);
            throw failure;
        }
    }

    /** @return the engine's I/O tensors and optimization profiles */
    public EngineSignature signature()
    {
        return signature;
    }

    /**
     * @param tensor an I/O tensor name
     * @return the engine-owned C string of that name, valid as long as the engine (no allocation per call)
     * @throws IllegalArgumentException for a name the engine does not have
     */
    public MemorySegment cName(final String tensor)
    {
        final MemorySegment name = names.get(tensor);
        if (name == null)
        {
            throw new IllegalArgumentException("the engine has no I/O tensor '" + tensor + "'; it has "
                + names.keySet());
        }
        return name;
    }

    /**
     * Creates an execution context with TensorRT's static allocation strategy (its activation memory is allocated
     * now, for the largest profile).
     *
     * @return the context, on optimization profile 0
     * @throws TrtException when TensorRT cannot create it (e.g. out of device memory)
     */
    public TrtExecutionContext createContext()
    {
        final MemorySegment context = TrtShim.contextCreate(handle, 0);
        if (context.equals(MemorySegment.NULL))
        {
            throw new TrtException("createExecutionContext failed: " + TrtShim.lastError());
        }
        return new TrtExecutionContext(this, context);
    }

    /** Destroys the engine. Idempotent; every context must be closed before. */
    @Override
    public synchronized void close()
    {
        if (!closed)
        {
            closed = true;
            TrtShim.engineDestroy(handle);
        }
    }

    @SuppressWarnings("restricted") // sizes the engine-owned name strings TensorRT returns
    private static Map<String, MemorySegment> readNames(final MemorySegment engine)
    {
        final int count = TrtShim.engineNbIo(engine);
        if (count < 0)
        {
            throw new TrtException("getNbIOTensors failed: " + TrtShim.lastError());
        }
        final Map<String, MemorySegment> names = new LinkedHashMap<>();
        for (int i = 0; i < count; i++)
        {
            final MemorySegment name = TrtShim.engineIoName(engine, i);
            if (name.equals(MemorySegment.NULL))
            {
                throw new TrtException("getIOTensorName(" + i + ") failed: " + TrtShim.lastError());
            }
            final String text = TrtShim.string(name);
            names.put(text, name.reinterpret(text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 1L));
        }
        return names;
    }

    private static EngineSignature readSignature(final MemorySegment engine, final Map<String, MemorySegment> names)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment dims = arena.allocate(TrtShim.DIMS_BYTES, 8);
            final List<EngineTensor> tensors = new ArrayList<>();
            for (final Map.Entry<String, MemorySegment> entry : names.entrySet())
            {
                final String name = entry.getKey();
                final MemorySegment cName = entry.getValue();
                final TensorIoMode mode = TensorIoMode.of(check(TrtShim.engineIoMode(engine, cName),
                    "getTensorIOMode", name));
                final TrtDataType dataType = TrtDataType.of(check(TrtShim.engineDtype(engine, cName),
                    "getTensorDataType", name));
                final TrtTensorFormat format = TrtTensorFormat.of(check(TrtShim.engineFormat(engine, cName),
                    "getTensorFormat", name));
                final boolean shapeTensor = check(TrtShim.engineIsShapeIo(engine, cName), "isShapeInferenceIO",
                    name) == 1;
                final int rank = check(TrtShim.engineShape(engine, cName, dims), "getTensorShape", name);
                tensors.add(new EngineTensor(name, mode, dataType, format, shapeTensor, read(dims, rank)));
            }
            final int profileCount = TrtShim.engineNbProfiles(engine);
            if (profileCount < 0)
            {
                throw new TrtException("getNbOptimizationProfiles failed: " + TrtShim.lastError());
            }
            final List<OptimizationProfile> profiles = new ArrayList<>();
            for (int p = 0; p < profileCount; p++)
            {
                final Map<String, ShapeRange> ranges = new LinkedHashMap<>();
                for (final EngineTensor tensor : tensors)
                {
                    if (!tensor.isInput() || tensor.shapeTensor())
                    {
                        continue;
                    }
                    final MemorySegment cName = names.get(tensor.name());
                    final long[][] shapes = new long[3][];
                    for (int selector = 0; selector < 3; selector++)
                    {
                        final int rank = TrtShim.engineProfileShape(engine, cName, p, selector, dims);
                        if (rank < 0)
                        {
                            throw new TrtException("getProfileShape(" + tensor.name() + ", profile " + p + ") failed: "
                                + TrtShim.lastError());
                        }
                        shapes[selector] = read(dims, rank);
                    }
                    ranges.put(tensor.name(), new ShapeRange(shapes[0], shapes[1], shapes[2]));
                }
                profiles.add(new OptimizationProfile(p, ranges));
            }
            return new EngineSignature(tensors, profiles);
        }
    }

    private static int check(final int result, final String call, final String tensor)
    {
        if (result < 0)
        {
            throw new TrtException(call + "(" + tensor + ") failed: " + TrtShim.lastError());
        }
        return result;
    }

    static long[] read(final MemorySegment dims, final int rank)
    {
        final long[] shape = new long[rank];
        for (int i = 0; i < rank; i++)
        {
            shape[i] = dims.getAtIndex(ValueLayout.JAVA_LONG, i);
        }
        return shape;
    }

    MemorySegment handle()
    {
        return handle;
    }
}
