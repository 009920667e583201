package io.ingot.onnx.capi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The process's one ONNX Runtime environment ({@code OrtEnv}, logging warnings and worse), the CPU memory info that
 * tensors over Ingot's memory are made with, and ONNX Runtime's default CPU allocator. Made on first use and kept for
 * the life of the process (an {@code OrtEnv} owns global state and must outlive every session). Thread-safe.
 *
 * @param env          the {@code OrtEnv*}
 * @param cpuMemory    an {@code OrtMemoryInfo*} for CPU memory ({@code OrtArenaAllocator}, {@code OrtMemTypeDefault})
 * @param allocator    the default {@code OrtAllocator*} (owned by ONNX Runtime, never released)
 */
public record OrtEnv(MemorySegment env, MemorySegment cpuMemory, MemorySegment allocator)
{
    /** The environment's log id. */
    public static final String LOG_ID = "ingot";

    /**
     * @return the environment, made on the first call
     * @throws OnnxRuntimeUnavailableException when the library cannot be loaded
     * @throws OrtException                    when ONNX Runtime refuses to make the environment
     */
    public static OrtEnv get()
    {
        return Holder.ENV;
    }

    private static OrtEnv create()
    {
        OrtApi.requireAvailable();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            OrtSessionApi.CreateEnv(OrtApi.ORT_LOGGING_LEVEL_WARNING, arena.allocateFrom(LOG_ID), out);
            final MemorySegment env = out.get(ValueLayout.ADDRESS, 0);
            OrtValueApi.CreateCpuMemoryInfo(OrtApi.OrtArenaAllocator, OrtApi.OrtMemTypeDefault, out);
            final MemorySegment memory = out.get(ValueLayout.ADDRESS, 0);
            OrtValueApi.GetAllocatorWithDefaultOptions(out);
            return new OrtEnv(env, memory, out.get(ValueLayout.ADDRESS, 0));
        }
    }

    /** Lazy, thread-safe initialisation (the class is loaded on the first {@link #get()}). */
    private static final class Holder
    {
        private static final OrtEnv ENV = create();
    }
}
