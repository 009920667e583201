package io.ingot.trt.shim;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A TensorRT {@code IRuntime}: deserializes plans into {@link TrtCudaEngine}s. Thread-safe (TensorRT allows a
 * runtime to be shared). Close it after every engine it made.
 */
public final class TrtRuntime implements AutoCloseable
{
    private final MemorySegment handle;
    private boolean closed;

    private TrtRuntime(final MemorySegment handle)
    {
        this.handle = handle;
    }

    /**
     * Creates a runtime logging through the process's {@link TrtLogger}.
     *
     * @return the runtime
     * @throws TrtException when the shim is unavailable or TensorRT cannot create a runtime
     */
    public static TrtRuntime create()
    {
        TrtShim.requireAvailable();
        final MemorySegment runtime = TrtShim.runtimeCreate(TrtLogger.nativeLogger());
        if (runtime.equals(MemorySegment.NULL))
        {
            throw new TrtException("createInferRuntime failed: " + TrtShim.lastError());
        }
        return new TrtRuntime(runtime);
    }

    /**
     * @param plan a serialized engine in native memory; may be freed when this returns
     * @return the engine
     * @throws TrtException with TensorRT's reason when the plan is not a usable engine
     */
    public TrtCudaEngine deserialize(final MemorySegment plan)
    {
        if (!plan.isNative())
        {
            throw new IllegalArgumentException("the plan must be in native memory");
        }
        final MemorySegment engine = TrtShim.engineDeserialize(handle, plan, plan.byteSize());
        if (engine.equals(MemorySegment.NULL))
        {
            final String reason = TrtShim.lastError();
            throw new TrtException("deserializeCudaEngine failed: " + (reason.isEmpty() ? "no reason given" : reason));
        }
        return new TrtCudaEngine(engine);
    }

    /**
     * Reads a plan file and deserializes it.
     *
     * @param planFile the {@code model.plan}
     * @return the engine
     * @throws IOException  when the file cannot be read
     * @throws TrtException with TensorRT's reason when it is not a usable engine
     */
    public TrtCudaEngine deserialize(final Path planFile) throws IOException
    {
        try (Arena arena = Arena.ofConfined();
             FileChannel channel = FileChannel.open(planFile, StandardOpenOption.READ))
        {
            final long size = channel.size();
            if (size == 0)
            {
                throw new TrtException("deserializeCudaEngine failed: " + planFile + " is empty");
            }
            return deserialize(channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena));
        }
    }

    /** Destroys the runtime. Idempotent. */
    @Override
    public synchronized void close()
    {
        if (!closed)
        {
            closed = true;
            TrtShim.runtimeDestroy(handle);
        }
    }
}
