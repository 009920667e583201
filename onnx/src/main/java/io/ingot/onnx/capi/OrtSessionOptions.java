package io.ingot.onnx.capi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One {@code OrtSessionOptions}: made empty (ONNX Runtime's defaults), set, passed to {@link OrtSession#open}, and
 * released by {@link #close()} after every session made from it is open (a session copies what it needs). Not
 * thread-safe.
 */
public final class OrtSessionOptions implements AutoCloseable
{
    private MemorySegment handle;

    /** Makes options with ONNX Runtime's defaults ({@code CreateSessionOptions}). */
    public OrtSessionOptions()
    {
        OrtApi.requireAvailable();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            OrtSessionApi.CreateSessionOptions(out);
            handle = out.get(ValueLayout.ADDRESS, 0);
        }
    }

    /** @return the {@code OrtSessionOptions*} */
    public MemorySegment handle()
    {
        if (handle == null)
        {
            throw new IllegalStateException("session options are closed");
        }
        return handle;
    }

    /**
     * @param threads threads inside one operator; {@code 0} keeps ONNX Runtime's default (one per physical core)
     * @return these options
     */
    public OrtSessionOptions intraOpThreads(final int threads)
    {
        OrtSessionApi.SetIntraOpNumThreads(handle(), threads);
        return this;
    }

    /**
     * @param threads threads across operators (parallel execution); {@code 0} keeps ONNX Runtime's default
     * @return these options
     */
    public OrtSessionOptions interOpThreads(final int threads)
    {
        OrtSessionApi.SetInterOpNumThreads(handle(), threads);
        return this;
    }

    /**
     * @param mode {@link OrtApi#ORT_SEQUENTIAL} or {@link OrtApi#ORT_PARALLEL}
     * @return these options
     */
    public OrtSessionOptions executionMode(final int mode)
    {
        OrtSessionApi.SetSessionExecutionMode(handle(), mode);
        return this;
    }

    /**
     * @param level a {@code GraphOptimizationLevel} ({@link OrtApi#ORT_ENABLE_ALL}, ...)
     * @return these options
     */
    public OrtSessionOptions graphOptimization(final int level)
    {
        OrtSessionApi.SetSessionGraphOptimizationLevel(handle(), level);
        return this;
    }

    /**
     * @param enabled ONNX Runtime's CPU memory arena on or off
     * @return these options
     */
    public OrtSessionOptions cpuMemoryArena(final boolean enabled)
    {
        if (enabled)
        {
            OrtSessionApi.EnableCpuMemArena(handle());
        }
        else
        {
            OrtSessionApi.DisableCpuMemArena(handle());
        }
        return this;
    }

    /**
     * @param enabled the memory pattern optimization on or off
     * @return these options
     */
    public OrtSessionOptions memoryPattern(final boolean enabled)
    {
        if (enabled)
        {
            OrtSessionApi.EnableMemPattern(handle());
        }
        else
        {
            OrtSessionApi.DisableMemPattern(handle());
        }
        return this;
    }

    /**
     * Adds a session configuration entry ({@code onnxruntime_session_options_config_keys.h}).
     *
     * @param key   the key, e.g. {@code session.use_device_allocator_for_initializers}
     * @param value its value
     * @return these options
     */
    public OrtSessionOptions configEntry(final String key, final String value)
    {
        try (Arena arena = Arena.ofConfined())
        {
            OrtSessionApi.AddSessionConfigEntry(handle(), arena.allocateFrom(key), arena.allocateFrom(value));
        }
        return this;
    }

    /**
     * @param key a configuration key
     * @return its value, or {@code null} when the options have none
     */
    public String configEntry(final String key)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment name = arena.allocateFrom(key);
            final MemorySegment present = arena.allocate(ValueLayout.JAVA_INT);
            OrtSessionApi.HasSessionConfigEntry(handle(), name, present);
            if (present.get(ValueLayout.JAVA_INT, 0) == 0)
            {
                return null;
            }
            final MemorySegment size = arena.allocate(ValueLayout.JAVA_LONG);
            size.set(ValueLayout.JAVA_LONG, 0, 256);
            MemorySegment value = arena.allocate(256);
            try
            {
                OrtSessionApi.GetSessionConfigEntry(handle(), name, value, size);
            }
            catch (final OrtException tooSmall)
            {
                // The first call wrote the size it needs into *size.
                value = arena.allocate(size.get(ValueLayout.JAVA_LONG, 0));
                OrtSessionApi.GetSessionConfigEntry(handle(), name, value, size);
            }
            return value.getString(0);
        }
    }

    @Override
    public void close()
    {
        if (handle != null)
        {
            OrtSessionApi.ReleaseSessionOptions(handle);
            handle = null;
        }
    }
}
