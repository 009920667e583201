package io.ingot.device;

import io.ingot.cuda.CudaException;
import io.ingot.cuda.CudaRuntime;
import io.ingot.cuda.NativeLibraryNotFoundException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Finds the CUDA devices of this machine, or says why there are none. Never throws for a missing library, driver
 * or device: those are normal answers on a machine without a GPU.
 */
public final class DeviceDiscovery
{
    /**
     * Room given to {@code cudaGetDeviceProperties}: more than CUDA 13.0's 1008-byte struct, so that a later 13.x
     * runtime with a longer struct cannot write past the buffer.
     */
    private static final long PROPERTIES_BUFFER = 4096;
    private static final long NAME_OFFSET =
        CudaRuntime.CUDA_DEVICE_PROP.byteOffset(MemoryLayout.PathElement.groupElement("name"));
    private static final long NAME_LENGTH =
        CudaRuntime.CUDA_DEVICE_PROP.select(MemoryLayout.PathElement.groupElement("name")).byteSize();
    private static final long TOTAL_MEMORY_OFFSET =
        CudaRuntime.CUDA_DEVICE_PROP.byteOffset(MemoryLayout.PathElement.groupElement("totalGlobalMem"));

    private DeviceDiscovery()
    {
    }

    /**
     * What discovery found.
     *
     * @param devices        the usable devices, by index; empty when there are none
     * @param reason         one line saying what was found, or why nothing was (e.g. naming
     *                       {@code cudaErrorInsufficientDriver (35)})
     * @param runtimeVersion {@code cudaRuntimeGetVersion}, or 0 when the runtime library was not found
     * @param driverVersion  {@code cudaDriverGetVersion}, or 0 when there is no driver
     */
    public record Result(List<CudaDevice> devices, String reason, int runtimeVersion, int driverVersion)
    {
        /** Validates and copies the components. */
        public Result
        {
            devices = List.copyOf(devices);
            Objects.requireNonNull(reason, "reason");
        }

        /** @return true when at least one device is usable */
        public boolean hasDevices()
        {
            return !devices.isEmpty();
        }
    }

    /**
     * Asks the CUDA runtime, now. The first call initialises the CUDA driver (tens to hundreds of milliseconds
     * with a GPU); cache the result where it is needed often ({@link PinnedAllocators} does).
     *
     * @return the devices, or none with the reason
     */
    public static Result discover()
    {
        final int runtimeVersion;
        try
        {
            runtimeVersion = CudaRuntime.cudaRuntimeGetVersion();
        }
        catch (final NativeLibraryNotFoundException missing)
        {
            return new Result(List.of(), "no CUDA runtime: " + missing.getMessage(), 0, 0);
        }
        int driverVersion = 0;
        try
        {
            driverVersion = CudaRuntime.cudaDriverGetVersion();
            final int count = CudaRuntime.cudaGetDeviceCount();
            if (count == 0)
            {
                return new Result(List.of(), "cudaGetDeviceCount reported no CUDA devices", runtimeVersion,
                    driverVersion);
            }
            final List<CudaDevice> devices = new ArrayList<>(count);
            final List<String> unusable = new ArrayList<>();
            for (int index = 0; index < count; index++)
            {
                try
                {
                    devices.add(describe(index));
                }
                catch (final CudaException failure)
                {
                    unusable.add("device " + index + ": " + failure.getMessage());
                }
            }
            return new Result(devices, summarise(devices, unusable), runtimeVersion, driverVersion);
        }
        catch (final CudaException failure)
        {
            return new Result(List.of(), failure.getMessage(), runtimeVersion, driverVersion);
        }
    }

    private static String summarise(final List<CudaDevice> devices, final List<String> unusable)
    {
        final String found = devices.isEmpty()
            ? "no usable CUDA device"
            : "found " + devices.size() + " CUDA device(s): "
                + devices.stream().map(CudaDevice::summary).collect(Collectors.joining("; "));
        return unusable.isEmpty() ? found : found + "; unusable: " + String.join("; ", unusable);
    }

    private static CudaDevice describe(final int index)
    {
        final String name;
        final long totalMemory;
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment properties = arena.allocate(PROPERTIES_BUFFER, 8);
            CudaRuntime.cudaGetDeviceProperties(properties, index);
            name = properties.asSlice(NAME_OFFSET, NAME_LENGTH).getString(0);
            totalMemory = properties.get(CudaRuntime.SIZE_T, TOTAL_MEMORY_OFFSET);
        }
        final int major = CudaRuntime.cudaDeviceGetAttribute(CudaRuntime.cudaDevAttrComputeCapabilityMajor, index);
        final int minor = CudaRuntime.cudaDeviceGetAttribute(CudaRuntime.cudaDevAttrComputeCapabilityMinor, index);
        final int sms = CudaRuntime.cudaDeviceGetAttribute(CudaRuntime.cudaDevAttrMultiProcessorCount, index);
        final String pci = String.format("%04x:%02x:%02x.0",
            CudaRuntime.cudaDeviceGetAttribute(CudaRuntime.cudaDevAttrPciDomainId, index),
            CudaRuntime.cudaDeviceGetAttribute(CudaRuntime.cudaDevAttrPciBusId, index),
            CudaRuntime.cudaDeviceGetAttribute(CudaRuntime.cudaDevAttrPciDeviceId, index));
        return new CudaDevice(index, name, major, minor, sms, totalMemory, pci);
    }
}
