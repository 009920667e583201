package io.ingot.ipc.client;

import io.ingot.agent.BackoffIdleStrategy;
import io.ingot.agent.IdleStrategy;
import io.ingot.agent.SpinningIdleStrategy;
import io.ingot.ipc.Doorbell;
import io.ingot.ipc.IpcRingReader;
import io.ingot.ipc.IpcTimeoutException;
import org.agrona.collections.Long2ObjectHashMap;

import java.time.Duration;

/**
 * The reading end of a client's response ring: hands out responses as they come ({@link #poll}) or waits for one
 * ({@link #await}), keeping responses to other requests that arrive meanwhile. A wait spins, yields, then sleeps on
 * the client's doorbell until the server rings it after writing a response, and looks at the server and the slot at
 * least every 5 ms, so that it never outlives either. Used by the client's one thread.
 */
final class ResponseReceiver
{
    /** Longest sleep on the response doorbell before the server's liveness is checked again. */
    private static final long MAX_SLEEP_NANOS = 5_000_000L;
    /** Spinning, then yielding this long covers a fast round trip without a sleep; longer waits sleep. */
    private static final long SPIN_NANOS = 5_000L;
    private static final long MAX_YIELD_NANOS = 50_000L;

    private final String name;
    private final IpcRingReader responses;
    private final ResponseDecoder decoder;
    private final ServerWatch server;
    private final ClientSlot slot;
    private final IdleStrategy idler;
    private final Long2ObjectHashMap<IpcResponse> early = new Long2ObjectHashMap<>();

    /**
     * @param name      the IPC name, for messages
     * @param responses the client's response ring
     * @param decoder   what makes responses of its records
     * @param doorbell  the client's doorbell, which the server rings after writing a response
     * @param busySpin  whether to spin instead of sleeping on the doorbell
     * @param server    the watch on the server
     * @param slot      the client's entry, checked in every wait
     */
    ResponseReceiver(final String name, final IpcRingReader responses, final ResponseDecoder decoder,
        final Doorbell doorbell, final boolean busySpin, final ServerWatch server, final ClientSlot slot)
    {
        this.name = name;
        this.responses = responses;
        this.decoder = decoder;
        this.server = server;
        this.slot = slot;
        this.idler = busySpin ? new SpinningIdleStrategy()
            : new BackoffIdleStrategy(doorbell, responses::hasRecord, SPIN_NANOS, MAX_YIELD_NANOS);
    }

    /** @return how many waits for a response slept on the doorbell until the server rang it */
    long doorbellWakeUps()
    {
        return idler.wakeUps();
    }

    /** @return the next response that has arrived, a kept one first, or {@code null} when none is ready */
    IpcResponse poll()
    {
        if (!early.isEmpty())
        {
            final long key = early.keySet().iterator().nextLong();
            return early.remove(key);
        }
        responses.read(decoder, 1);
        final IpcResponse response = decoder.take();
        if (response == null)
        {
            server.check(System.nanoTime());
        }
        return response;
    }

    /**
     * @param correlationId the request's id
     * @param timeout       how long to wait
     * @return its response
     * @throws IpcTimeoutException when it does not arrive in time
     */
    IpcResponse await(final long correlationId, final Duration timeout)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        idler.reset();
        while (true)
        {
            final IpcResponse kept = early.remove(correlationId);
            if (kept != null)
            {
                return kept;
            }
            if (responses.read(decoder, 1) > 0)
            {
                final IpcResponse response = decoder.take();
                if (response.correlationId() == correlationId)
                {
                    return response;
                }
                early.put(response.correlationId(), response);
                idler.reset();
                continue;
            }
            final long now = System.nanoTime();
            server.check(now);
            slot.checkOwned();
            if (now > deadline)
            {
                throw new IpcTimeoutException("no response to request " + correlationId + " from the Ingot IPC "
                    + "server '" + name + "' within " + timeout.toMillis() + " ms");
            }
            // Sleeps until the server rings after writing a response; wakes at least every 5 ms to check that the
            // server still lives.
            idler.idle(0, Math.min(MAX_SLEEP_NANOS, Math.max(1_000L, deadline - now)));
        }
    }
}
