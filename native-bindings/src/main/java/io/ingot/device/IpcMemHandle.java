package io.ingot.device;

import io.ingot.cuda.CudaRuntime;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A {@code cudaIpcMemHandle_t}: 64 opaque bytes that let another process on the same machine map a
 * {@code cudaMalloc} allocation ({@link DeviceBuffer#exportIpc()}, {@link DeviceBuffer#openIpc}). Immutable.
 */
public final class IpcMemHandle
{
    /** Bytes in a handle ({@code CUDA_IPC_HANDLE_SIZE}). */
    public static final int SIZE = CudaRuntime.CUDA_IPC_HANDLE_SIZE;

    private final byte[] bytes;

    private IpcMemHandle(final byte[] bytes)
    {
        this.bytes = bytes;
    }

    /**
     * @param bytes the handle's bytes, exactly {@value #SIZE} (copied)
     * @return the handle
     * @throws IllegalArgumentException when {@code bytes} is not {@value #SIZE} long
     */
    public static IpcMemHandle of(final byte[] bytes)
    {
        if (bytes.length != SIZE)
        {
            throw new IllegalArgumentException("a CUDA IPC memory handle has " + SIZE + " bytes, got " + bytes.length);
        }
        return new IpcMemHandle(bytes.clone());
    }

    /**
     * @param hex {@value #SIZE} bytes as 128 hex digits (as {@link #toHex()} writes them)
     * @return the handle
     * @throws IllegalArgumentException when {@code hex} is not 128 hex digits
     */
    public static IpcMemHandle fromHex(final String hex)
    {
        if (hex.length() != 2 * SIZE)
        {
            throw new IllegalArgumentException("a CUDA IPC memory handle is " + 2 * SIZE + " hex digits, got "
                + hex.length());
        }
        return new IpcMemHandle(HexFormat.of().parseHex(hex));
    }

    /**
     * @param segment at least {@value #SIZE} bytes holding a handle
     * @return the handle read from the first {@value #SIZE} bytes
     */
    static IpcMemHandle read(final MemorySegment segment)
    {
        return new IpcMemHandle(segment.asSlice(0, SIZE).toArray(ValueLayout.JAVA_BYTE));
    }

    /**
     * Writes the handle into {@code segment}.
     *
     * @param segment at least {@value #SIZE} bytes
     */
    void write(final MemorySegment segment)
    {
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, segment, 0, SIZE);
    }

    /** @return a copy of the handle's bytes */
    public byte[] toBytes()
    {
        return bytes.clone();
    }

    /** @return the handle as 128 lower-case hex digits, for passing to another process as text */
    public String toHex()
    {
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof IpcMemHandle handle && Arrays.equals(bytes, handle.bytes);
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString()
    {
        return "IpcMemHandle[" + toHex() + "]";
    }
}
