package io.ingot.device;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Shared set-up of the GPU tests: skip with the printed reason where there is no usable device. */
final class GpuTestSupport
{
    private GpuTestSupport()
    {
    }

    /**
     * Skips the calling test class (JUnit assumption) unless discovery finds a device, printing why.
     *
     * @param testClass the class being skipped, for the message
     * @return the discovery result
     */
    static DeviceDiscovery.Result requireDevice(final Class<?> testClass)
    {
        final DeviceDiscovery.Result result = DeviceDiscovery.discover();
        if (!result.hasDevices())
        {
            System.out.println(testClass.getSimpleName() + ": skipped, no usable GPU: " + result.reason());
        }
        assumeTrue(result.hasDevices(), "no usable GPU: " + result.reason());
        return result;
    }

    /**
     * Fills {@code segment} with fresh random bytes.
     *
     * @param segment the memory
     * @param seed    the seed (printed by failing assertions so a failure can be replayed)
     */
    static void fillRandom(final MemorySegment segment, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final long words = segment.byteSize() / Long.BYTES;
        for (long i = 0; i < words; i++)
        {
            segment.set(ValueLayout.JAVA_LONG_UNALIGNED, i * Long.BYTES, random.nextLong());
        }
        for (long i = words * Long.BYTES; i < segment.byteSize(); i++)
        {
            segment.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt());
        }
    }
}
