package io.ingot.device;

import io.ingot.cuda.CudaException;
import io.ingot.cuda.CudaRuntime;
import io.ingot.cuda.NativeLibraryNotFoundException;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Existing host memory — typically a shared-memory mapping that other processes write tensors into — page-locked
 * for the device with {@code cudaHostRegister} while this registration is open, so that the copy engine reads it
 * by DMA without a staging copy. Where there is no usable device, or the driver refuses (no GPU, the
 * {@code RLIMIT_MEMLOCK} limit, a file system it cannot pin), the memory stays ordinary pageable memory and
 * {@link #reason()} says why: registering never fails its caller.
 *
 * <p>{@link #close()} unregisters, once; close it before the memory is unmapped.
 */
public final class HostRegistration implements AutoCloseable
{
    private final MemorySegment memory;
    private final boolean pinned;
    private final String reason;
    private final AtomicBoolean closed = new AtomicBoolean();

    private HostRegistration(final MemorySegment memory, final boolean pinned, final String reason)
    {
        this.memory = memory;
        this.pinned = pinned;
        this.reason = reason;
    }

    /**
     * Registers the memory if this machine's device discovery ({@link PinnedAllocators#discovery()}) found a
     * device.
     *
     * @param memory native memory, e.g. a mapped file
     * @return the registration: pinned, or not with the reason
     */
    public static HostRegistration register(final MemorySegment memory)
    {
        return register(memory, PinnedAllocators.discovery());
    }

    /**
     * @param memory    native memory, e.g. a mapped file
     * @param discovery what device discovery found
     * @return the registration: pinned ({@code cudaHostRegisterPortable}, for every context), or not with the reason
     * @throws IllegalArgumentException when {@code memory} is not native memory
     */
    public static HostRegistration register(final MemorySegment memory, final DeviceDiscovery.Result discovery)
    {
        Objects.requireNonNull(memory, "memory");
        if (!memory.isNative())
        {
            throw new IllegalArgumentException("only native memory can be registered with the device, not a heap "
                + "segment");
        }
        if (!discovery.hasDevices())
        {
            return new HostRegistration(memory, false, "no CUDA device: " + discovery.reason());
        }
        try
        {
            CudaRuntime.cudaHostRegister(memory, CudaRuntime.cudaHostRegisterPortable);
            return new HostRegistration(memory, true, null);
        }
        catch (final CudaException | NativeLibraryNotFoundException ex)
        {
            return new HostRegistration(memory, false, "cudaHostRegister of " + memory.byteSize() + " bytes failed: "
                + ex.getMessage());
        }
    }

    /**
     * @param memory the memory left pageable
     * @param reason why it is not registered (e.g. the user turned pinning off)
     * @return a registration that pins nothing
     */
    public static HostRegistration unpinned(final MemorySegment memory, final String reason)
    {
        return new HostRegistration(Objects.requireNonNull(memory, "memory"), false, reason);
    }

    /** @return whether the memory is page-locked for the device now */
    public boolean isDevicePinned()
    {
        return pinned && !closed.get();
    }

    /** @return why the memory is not pinned, or {@code null} when it is */
    public String reason()
    {
        return pinned ? null : reason;
    }

    /** @return the registered memory */
    public MemorySegment memory()
    {
        return memory;
    }

    /**
     * Unregisters pinned memory; idempotent.
     *
     * @throws CudaException when {@code cudaHostUnregister} fails (the memory is then treated as unregistered)
     */
    @Override
    public void close()
    {
        if (closed.compareAndSet(false, true) && pinned)
        {
            CudaRuntime.cudaHostUnregister(memory);
        }
    }

    @Override
    public String toString()
    {
        return pinned ? "pinned " + memory.byteSize() + " bytes" : "not pinned (" + reason + ")";
    }
}
