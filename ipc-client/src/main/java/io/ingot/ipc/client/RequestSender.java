package io.ingot.ipc.client;

import io.ingot.ipc.Doorbell;
import io.ingot.ipc.InferFrameFlyweight;
import io.ingot.ipc.IpcLimits;
import io.ingot.ipc.IpcRingWriter;
import io.ingot.ipc.IpcTimeoutException;
import io.ingot.ipc.ReleaseFrameFlyweight;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.time.Duration;

/**
 * The writing end of a client's request ring: INFER frames, each with the next correlation id, and the RELEASE frames
 * that hand a response's output space back (docs/ipc.md, "Frames"). Every committed frame rings the server's
 * doorbell, which costs a system call only when the server's thread sleeps. A full ring is a status for an INFER
 * frame and a bounded wait for a RELEASE frame. Used by the client's one thread.
 */
final class RequestSender
{
    /** {@link #trySend} result when the request ring has no room now. */
    static final long BACK_PRESSURED = -1;

    private final IpcRingWriter requests;
    private final Doorbell serverBell;
    private final ServerWatch server;
    private final int slot;
    private final boolean busySpin;
    private final Duration backPressureTimeout;
    private final ReleaseFrameFlyweight releaseFrame = new ReleaseFrameFlyweight();
    private long nextCorrelationId = 1;

    /**
     * @param requests   the client's request ring
     * @param serverBell the server's doorbell
     * @param server     the watch on the server
     * @param slot       the client's slot, for messages
     * @param options    how to wait for room
     */
    RequestSender(final IpcRingWriter requests, final Doorbell serverBell, final ServerWatch server, final int slot,
        final IpcClientOptions options)
    {
        this.requests = requests;
        this.serverBell = serverBell;
        this.server = server;
        this.slot = slot;
        this.busySpin = options.busySpin();
        this.backPressureTimeout = options.backPressureTimeout();
    }

    /**
     * Writes an INFER frame if the ring has room now.
     *
     * @param request the request
     * @return its correlation id ({@code > 0}), or {@link #BACK_PRESSURED}
     * @throws IllegalArgumentException when it encodes to more than {@link IpcLimits#MAX_REQUEST_FRAME_LENGTH}
     */
    long trySend(final IpcRequest request)
    {
        server.check(System.nanoTime());
        final int length = request.encodedLength();
        if (length > IpcLimits.MAX_REQUEST_FRAME_LENGTH)
        {
            throw new IllegalArgumentException("request for model '" + request.modelName() + "' encodes to " + length
                + " bytes; the limit is " + IpcLimits.MAX_REQUEST_FRAME_LENGTH);
        }
        final int index = requests.tryClaim(InferFrameFlyweight.TYPE, length);
        if (index == IpcRingWriter.INSUFFICIENT_CAPACITY)
        {
            return BACK_PRESSURED;
        }
        final long correlationId = nextCorrelationId++;
        request.encode(requests.buffer(), index, correlationId);
        requests.commit(index);
        serverBell.ring();
        return correlationId;
    }

    /**
     * Writes the RELEASE frames of a response's outputs, waiting for room up to the back-pressure timeout.
     *
     * @param response the response whose output space goes back to the server
     * @throws IpcTimeoutException when the ring stays full
     */
    void release(final IpcResponse response)
    {
        final IpcOutput[] outputs = response.outputArray();
        for (int first = 0; first < outputs.length; first += IpcLimits.MAX_RELEASES)
        {
            final int count = Math.min(IpcLimits.MAX_RELEASES, outputs.length - first);
            final int length = ReleaseFrameFlyweight.encodedLength(count);
            int index = requests.tryClaim(ReleaseFrameFlyweight.TYPE, length);
            if (index == IpcRingWriter.INSUFFICIENT_CAPACITY)
            {
                final IdleStrategy idle = backPressureIdler();
                final long deadline = System.nanoTime() + backPressureTimeout.toNanos();
                while ((index = requests.tryClaim(ReleaseFrameFlyweight.TYPE, length))
                    == IpcRingWriter.INSUFFICIENT_CAPACITY)
                {
                    final long now = System.nanoTime();
                    server.check(now);
                    if (now > deadline)
                    {
                        throw new IpcTimeoutException("could not release the outputs of response "
                            + response.correlationId() + ": the request ring of client slot " + slot
                            + " stayed full for " + backPressureTimeout.toMillis() + " ms");
                    }
                    idle.idle();
                }
            }
            releaseFrame.wrap(requests.buffer(), index).count(count);
            for (int i = 0; i < count; i++)
            {
                releaseFrame.entry(i, outputs[first + i].offset(), outputs[first + i].byteLength());
            }
            requests.commit(index);
            serverBell.ring();
        }
    }

    /** @return how to wait for room in a full ring: spin, or back off from spinning to parking up to 200 µs */
    IdleStrategy backPressureIdler()
    {
        return busySpin ? new BusySpinIdleStrategy() : new BackoffIdleStrategy(100, 5_000, 1_000, 200_000);
    }
}
