package io.ingot.device;

import java.util.Objects;

/**
 * One CUDA device as {@link DeviceDiscovery} found it.
 *
 * @param index                   the device ordinal ({@code cudaSetDevice} argument)
 * @param name                    the product name, e.g. "NVIDIA H200"
 * @param computeCapabilityMajor  compute capability, major part (9 for Hopper)
 * @param computeCapabilityMinor  compute capability, minor part
 * @param multiprocessorCount     streaming multiprocessors
 * @param totalMemoryBytes        global memory in bytes
 * @param pciBusId                PCI location as {@code domain:bus:device.0} in hex, e.g. {@code 0000:3b:00.0}
 */
public record CudaDevice(
    int index,
    String name,
    int computeCapabilityMajor,
    int computeCapabilityMinor,
    int multiprocessorCount,
    long totalMemoryBytes,
    String pciBusId)
{
    /** Validates the components. */
    public CudaDevice
    {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(pciBusId, "pciBusId");
        if (index < 0)
        {
            throw new IllegalArgumentException("device index must be >= 0, was " + index);
        }
    }

    /** @return the compute capability as {@code major.minor}, e.g. {@code "9.0"} */
    public String computeCapability()
    {
        return computeCapabilityMajor + "." + computeCapabilityMinor;
    }

    /** @return a one-line summary for logs, e.g. {@code "0: NVIDIA H200 (sm_90, 132 SMs, 139.8 GiB, 0000:3b:00.0)"} */
    public String summary()
    {
        return String.format("%d: %s (sm_%d%d, %d SMs, %.1f GiB, %s)", index, name, computeCapabilityMajor,
            computeCapabilityMinor, multiprocessorCount, totalMemoryBytes / (double) (1L << 30), pciBusId);
    }
}
