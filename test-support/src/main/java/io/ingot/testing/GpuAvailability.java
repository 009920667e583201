package io.ingot.testing;

import io.ingot.device.DeviceDiscovery;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The condition behind {@link GpuTest}: before a GPU test class runs, asks device discovery whether a CUDA device is
 * usable, prints the answer, and aborts the class (a JUnit assumption) when none is. Discovery runs again for each
 * GPU test class. Stateless and thread-safe.
 */
public final class GpuAvailability implements BeforeAllCallback
{
    @Override
    public void beforeAll(final ExtensionContext context)
    {
        final DeviceDiscovery.Result result = DeviceDiscovery.discover();
        final String name = context.getRequiredTestClass().getSimpleName();
        if (!result.hasDevices())
        {
            System.out.println(name + ": skipped, no usable GPU: " + result.reason());
        }
        else
        {
            System.out.println(name + ": " + result.reason());
        }
        assumeTrue(result.hasDevices(), "no usable GPU: " + result.reason());
    }
}
