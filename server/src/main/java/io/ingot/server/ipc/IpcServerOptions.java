package io.ingot.server.ipc;

import io.ingot.api.IdleMode;
import io.ingot.ipc.IpcLayout;

import java.time.Duration;
import java.util.Objects;

/**
 * Sizes and behaviour of an {@link IpcServer} (docs/ipc.md, "Limits"). Built with {@link #builder()}; every value is
 * checked when the layout is made ({@link #layout()}), with a message naming the option.
 *
 * @param maxClients        client slots
 * @param slabBytes         bytes of each client's slab
 * @param slabInputBytes    bytes of each slab's input area (the client's); the rest holds outputs
 * @param requestRingBytes  bytes of each request ring (a power of two)
 * @param responseRingBytes bytes of each response ring (a power of two)
 * @param maxInFlight       requests of one client the server holds at once
 * @param heartbeatInterval heartbeat period of server and clients
 * @param livenessTimeout   how long a heartbeat may stand still before its owner counts as gone
 * @param idleMode          how the IPC thread waits for work: {@link IdleMode#BLOCKING} spins briefly then sleeps
 *                          on the request doorbell until a client rings it, {@link IdleMode#BACKOFF} yields the
 *                          processor for longer (1 ms instead of 20 µs) before that sleep, {@link IdleMode#SPINNING}
 *                          never sleeps (one core busy; clients then never need a system call to wake it)
 * @param pinDataRegion     page-lock the data region for the GPU ({@code cudaHostRegister}) when one is usable, so
 *                          that the copy engine reads clients' tensors in place; where none is, or the driver refuses,
 *                          the region stays pageable and the server logs why
 */
public record IpcServerOptions(int maxClients, long slabBytes, long slabInputBytes, int requestRingBytes,
    int responseRingBytes, int maxInFlight, Duration heartbeatInterval, Duration livenessTimeout, IdleMode idleMode,
    boolean pinDataRegion)
{
    /** Checks the references; the sizes are checked by {@link #layout()}. */
    public IpcServerOptions
    {
        Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
        Objects.requireNonNull(livenessTimeout, "livenessTimeout");
        Objects.requireNonNull(idleMode, "idleMode");
    }

    /** @return a builder with the defaults: 16 clients, 16 MiB slabs split in half, 64 requests in flight. */
    public static Builder builder()
    {
        return new Builder();
    }

    /** @return the default options. */
    public static IpcServerOptions defaults()
    {
        return builder().build();
    }

    /**
     * @return the region layout these options describe
     * @throws IllegalArgumentException naming the first option out of range
     */
    public IpcLayout layout()
    {
        return new IpcLayout(maxClients, slabBytes, slabInputBytes, requestRingBytes, responseRingBytes, maxInFlight,
            heartbeatInterval.toMillis(), livenessTimeout.toMillis());
    }

    /** Builder of {@link IpcServerOptions}. */
    public static final class Builder
    {
        private int maxClients = 16;
        private long slabBytes = 16L << 20;
        private long slabInputBytes = -1;
        private int requestRingBytes = 256 << 10;
        private int responseRingBytes = -1;
        private int maxInFlight = 64;
        private Duration heartbeatInterval = Duration.ofMillis(100);
        private Duration livenessTimeout = Duration.ofSeconds(5);
        private IdleMode idleMode = IdleMode.BLOCKING;
        private boolean pinDataRegion = true;

        private Builder()
        {
        }

        /**
         * @param count client slots, 1..1024
         * @return this
         */
        public Builder maxClients(final int count)
        {
            maxClients = count;
            return this;
        }

        /**
         * @param bytes bytes of each client's slab: a multiple of 64 KiB, 128 KiB..1 TiB
         * @return this
         */
        public Builder slabBytes(final long bytes)
        {
            slabBytes = bytes;
            return this;
        }

        /**
         * @param bytes bytes of each slab's input area, a multiple of 64 KiB (default: half the slab)
         * @return this
         */
        public Builder slabInputBytes(final long bytes)
        {
            slabInputBytes = bytes;
            return this;
        }

        /**
         * @param bytes bytes of each request ring, a power of two, 128 KiB..64 MiB
         * @return this
         */
        public Builder requestRingBytes(final int bytes)
        {
            requestRingBytes = bytes;
            return this;
        }

        /**
         * @param bytes bytes of each response ring, a power of two with room for maxInFlight + 2 responses of
         *              8 KiB (default: the smallest such)
         * @return this
         */
        public Builder responseRingBytes(final int bytes)
        {
            responseRingBytes = bytes;
            return this;
        }

        /**
         * @param count requests of one client in flight at once, 1..1024
         * @return this
         */
        public Builder maxInFlight(final int count)
        {
            maxInFlight = count;
            return this;
        }

        /**
         * @param interval heartbeat period, 1 ms..60 s
         * @return this
         */
        public Builder heartbeatInterval(final Duration interval)
        {
            heartbeatInterval = interval;
            return this;
        }

        /**
         * @param timeout how long a heartbeat may stand still, at least 3 heartbeat intervals
         * @return this
         */
        public Builder livenessTimeout(final Duration timeout)
        {
            livenessTimeout = timeout;
            return this;
        }

        /**
         * @param mode how the IPC thread waits for work
         * @return this
         */
        public Builder idleMode(final IdleMode mode)
        {
            idleMode = mode;
            return this;
        }

        /**
         * @param pin whether to page-lock the data region for a GPU when one is usable (default true)
         * @return this
         */
        public Builder pinDataRegion(final boolean pin)
        {
            pinDataRegion = pin;
            return this;
        }

        /** @return the options. */
        public IpcServerOptions build()
        {
            final long input = slabInputBytes >= 0 ? slabInputBytes
                : Math.max(IpcLayout.SLAB_GRANULE, slabBytes / 2 / IpcLayout.SLAB_GRANULE * IpcLayout.SLAB_GRANULE);
            final int response = responseRingBytes >= 0 ? responseRingBytes
                : IpcLayout.minResponseRingCapacity(Math.max(1, maxInFlight));
            return new IpcServerOptions(maxClients, slabBytes, input, requestRingBytes, response, maxInFlight,
                heartbeatInterval, livenessTimeout, idleMode, pinDataRegion);
        }
    }
}
