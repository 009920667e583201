package io.ingot.trt.testing;

import io.ingot.device.DeviceDiscovery;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Shared set-up of this module's GPU tests: skip with a printed reason where something they need is missing. */
public final class GpuTesting
{
    private GpuTesting()
    {
    }

    /**
     * Skips the calling test (JUnit assumption) unless a CUDA device is usable, printing why.
     *
     * @param testClass the test class, for the message
     * @return what discovery found
     */
    public static DeviceDiscovery.Result requireGpu(final Class<?> testClass)
    {
        final DeviceDiscovery.Result result = DeviceDiscovery.discover();
        if (!result.hasDevices())
        {
            System.out.println(testClass.getSimpleName() + ": skipped, no usable GPU: " + result.reason());
        }
        assumeTrue(result.hasDevices(), "no usable GPU: " + result.reason());
        System.out.println(testClass.getSimpleName() + ": " + result.reason());
        return result;
    }

    /**
     * Finds {@code trt/src/main/native} (the shim's sources and build script): system property
     * {@code ingot.trt.native.dir}, else upwards from the working directory (the module, the repository root, or the
     * GPU-check bundle inside the working tree).
     *
     * @return the folder, or {@code null} when it is not found
     */
    public static Path nativeSources()
    {
        final String configured = System.getProperty("ingot.trt.native.dir");
        if (configured != null)
        {
            return Path.of(configured);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent())
        {
            for (final Path candidate : new Path[] {dir.resolve("src/main/native"), dir.resolve("trt/src/main/native")})
            {
                if (Files.isRegularFile(candidate.resolve("build.sh"))
                    && Files.isRegularFile(candidate.resolve("ingot_trt_shim.cpp")))
                {
                    return candidate;
                }
            }
        }
        return null;
    }
}
