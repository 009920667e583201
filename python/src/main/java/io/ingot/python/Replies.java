package io.ingot.python;

import io.ingot.ipc.FrameText;
import io.ingot.ipc.IpcLimits;
import io.ingot.ipc.IpcRingWriter;
import io.ingot.ipc.IpcStatus;
import io.ingot.ipc.SharedMemory;
import io.ingot.ipc.Utf8;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The REPLY records a stub waits for (to its RESPONSE and CALL records), written into the ring to the stub by the
 * thread holding the stub's role: at once when there is room, else queued and written by the next pass of
 * {@link #run()}. Replies computed on other threads (model control runs on a thread of its own) are queued with
 * {@link #post} and the role holder woken. Thread-safe: {@link #post} from any thread; the rest by the role holder.
 */
final class Replies implements StubProcess.SideWork
{
    /** One reply: what the stub's waiting call receives. */
    record Reply(long callId, int status, String message, double number, long handle)
    {
        /** @return a successful reply carrying a number and a handle */
        static Reply ok(final long callId, final double number, final long handle)
        {
            return new Reply(callId, IpcStatus.OK, "", number, handle);
        }

        /** @return a failed reply */
        static Reply error(final long callId, final int status, final String message)
        {
            return new Reply(callId, status, message, 0, 0);
        }
    }

    private final StubProcess stub;
    private final ConcurrentLinkedQueue<Reply> queued = new ConcurrentLinkedQueue<>();

    /**
     * @param stub the stub the replies go to
     */
    Replies(final StubProcess stub)
    {
        this.stub = stub;
    }

    /**
     * Writes a reply now (role holder), or queues it when the ring is full. A call id of 0 wants no reply.
     *
     * @param reply the reply
     */
    void send(final Reply reply)
    {
        if (reply.callId() == 0)
        {
            return;
        }
        if (!queued.isEmpty() || !write(reply))
        {
            queued.add(reply);
        }
        else
        {
            stub.ringStub();
        }
    }

    /**
     * Queues a reply computed off the role and wakes the role holder (any thread).
     *
     * @param reply the reply
     */
    void post(final Reply reply)
    {
        if (reply.callId() != 0)
        {
            queued.add(reply);
            stub.wakeParent();
        }
    }

    @Override
    public int run()
    {
        int written = 0;
        Reply reply;
        while ((reply = queued.peek()) != null && write(reply))
        {
            queued.poll();
            written++;
        }
        if (written > 0)
        {
            stub.ringStub();
        }
        return written;
    }

    @Override
    public boolean pending()
    {
        return !queued.isEmpty();
    }

    private boolean write(final Reply reply)
    {
        final byte[] message = reply.message().isEmpty() ? FrameText.NO_BYTES
            : Utf8.truncate(reply.message(), StubProtocol.MAX_MESSAGE_BYTES);
        final int length = StubProtocol.REPLY_HEADER_LENGTH + IpcLimits.align8(message.length);
        final int index = stub.tryClaim(StubProtocol.REPLY, length);
        if (index == IpcRingWriter.INSUFFICIENT_CAPACITY)
        {
            return false;
        }
        final MemorySegment buffer = stub.ringToStub().buffer();
        buffer.set(SharedMemory.LONG, index, reply.callId());
        buffer.set(SharedMemory.INT, index + 8, reply.status());
        buffer.set(SharedMemory.INT, index + 12, message.length);
        buffer.set(SharedMemory.LONG, index + 16, Double.doubleToRawLongBits(reply.number()));
        buffer.set(SharedMemory.LONG, index + 24, reply.handle());
        FrameText.put(buffer, index + StubProtocol.REPLY_HEADER_LENGTH, message);
        stub.ringToStub().commit(index);
        return true;
    }
}
