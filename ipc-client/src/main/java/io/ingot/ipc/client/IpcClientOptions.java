package io.ingot.ipc.client;

import java.time.Duration;
import java.util.Objects;

/**
 * How an {@link IpcClient} waits.
 *
 * @param connectTimeout      how long {@link IpcClient#connect} waits for the server to accept the registration
 * @param backPressureTimeout how long {@link IpcClient#submit} and releases wait for room in the request ring
 * @param busySpin            spin while waiting for responses (lowest latency, one core busy) instead of backing
 *                            off from spinning to yielding to parking
 */
public record IpcClientOptions(Duration connectTimeout, Duration backPressureTimeout, boolean busySpin)
{
    /** Defaults: 5 s to connect, 5 s of back-pressure, back-off waiting. */
    public static final IpcClientOptions DEFAULTS = new IpcClientOptions(Duration.ofSeconds(5), Duration.ofSeconds(5),
        false);

    /** Checks the durations. */
    public IpcClientOptions
    {
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(backPressureTimeout, "backPressureTimeout");
        if (connectTimeout.isNegative() || backPressureTimeout.isNegative())
        {
            throw new IllegalArgumentException("timeouts must not be negative: connect " + connectTimeout
                + ", back-pressure " + backPressureTimeout);
        }
    }

    /**
     * @param spin whether to busy-spin while waiting
     * @return these options with that waiting mode
     */
    public IpcClientOptions withBusySpin(final boolean spin)
    {
        return new IpcClientOptions(connectTimeout, backPressureTimeout, spin);
    }
}
