package io.ingot.onnx.capi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One {@code OrtSession}: a loaded model, with its inputs and outputs read once at load. {@code RunWithBinding} on
 * one session is safe from several threads at once (each with its own {@code OrtIoBinding}), so instances may share a
 * session. {@link #close()} releases it once; the caller makes sure no run is in flight then.
 */
public final class OrtSession implements AutoCloseable
{
    private final AtomicReference<MemorySegment> handle;
    private final List<OrtTensorInfo> inputs;
    private final List<OrtTensorInfo> outputs;

    private OrtSession(final MemorySegment handle)
    {
        this.handle = new AtomicReference<>(handle);
        try
        {
            this.inputs = describe(handle, true);
            this.outputs = describe(handle, false);
        }
        catch (final RuntimeException e)
        {
            OrtSessionApi.ReleaseSession(handle);
            throw e;
        }
    }

    /**
     * Loads a model file ({@code CreateSession}).
     *
     * @param file    the {@code .onnx} file
     * @param options the session options
     * @return the session
     * @throws OrtException when ONNX Runtime cannot load it (a missing, corrupt or unsupported model)
     */
    public static OrtSession open(final Path file, final OrtSessionOptions options)
    {
        final OrtEnv env = OrtEnv.get();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            OrtSessionApi.CreateSession(env.env(), arena.allocateFrom(file.toString()), options.handle(), out);
            return new OrtSession(out.get(ValueLayout.ADDRESS, 0));
        }
    }

    /**
     * Loads a model held in memory ({@code CreateSessionFromArray}).
     *
     * @param model   the serialized {@code ModelProto}
     * @param options the session options
     * @return the session
     * @throws OrtException when ONNX Runtime cannot load it
     */
    public static OrtSession fromBytes(final byte[] model, final OrtSessionOptions options)
    {
        final OrtEnv env = OrtEnv.get();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            final MemorySegment bytes = arena.allocate(Math.max(1, model.length));
            MemorySegment.copy(model, 0, bytes, ValueLayout.JAVA_BYTE, 0, model.length);
            OrtSessionApi.CreateSessionFromArray(env.env(), bytes, model.length, options.handle(), out);
            return new OrtSession(out.get(ValueLayout.ADDRESS, 0));
        }
    }

    /** @return the {@code OrtSession*} */
    public MemorySegment handle()
    {
        final MemorySegment session = handle.get();
        if (session == null)
        {
            throw new IllegalStateException("the ONNX Runtime session is closed");
        }
        return session;
    }

    /** @return the model's inputs, in model order */
    public List<OrtTensorInfo> inputs()
    {
        return inputs;
    }

    /** @return the model's outputs, in model order */
    public List<OrtTensorInfo> outputs()
    {
        return outputs;
    }

    private static List<OrtTensorInfo> describe(final MemorySegment session, final boolean inputs)
    {
        final OrtEnv env = OrtEnv.get();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            final MemorySegment count = arena.allocate(ValueLayout.JAVA_LONG);
            if (inputs)
            {
                OrtSessionApi.SessionGetInputCount(session, count);
            }
            else
            {
                OrtSessionApi.SessionGetOutputCount(session, count);
            }
            final int n = Math.toIntExact(count.get(ValueLayout.JAVA_LONG, 0));
            final List<OrtTensorInfo> infos = new ArrayList<>(n);
            for (int i = 0; i < n; i++)
            {
                if (inputs)
                {
                    OrtSessionApi.SessionGetInputName(session, i, env.allocator(), out);
                }
                else
                {
                    OrtSessionApi.SessionGetOutputName(session, i, env.allocator(), out);
                }
                final MemorySegment name = out.get(ValueLayout.ADDRESS, 0);
                final String text = OrtApi.string(name);
                OrtValueApi.AllocatorFree(env.allocator(), name);
                if (inputs)
                {
                    OrtSessionApi.SessionGetInputTypeInfo(session, i, out);
                }
                else
                {
                    OrtSessionApi.SessionGetOutputTypeInfo(session, i, out);
                }
                final MemorySegment typeInfo = out.get(ValueLayout.ADDRESS, 0);
                try
                {
                    infos.add(OrtTypes.describe(text, typeInfo, arena));
                }
                finally
                {
                    OrtValueApi.ReleaseTypeInfo(typeInfo);
                }
            }
            return List.copyOf(infos);
        }
    }

    @Override
    public void close()
    {
        final MemorySegment session = handle.getAndSet(null);
        if (session != null)
        {
            OrtSessionApi.ReleaseSession(session);
        }
    }
}
