package io.ingot.python;

import io.ingot.ipc.FrameText;
import io.ingot.ipc.IpcRingCorruptException;
import io.ingot.ipc.SharedMemory;

import java.lang.foreign.MemorySegment;

/**
 * Reads the stub's {@code int32 status, uint32 length, text} bodies (the results of INITIALIZE, FINALIZE and
 * auto-complete): status 0 is success, anything else carries the Python error's text.
 *
 * <p>Contract: a text length that does not fit the body is the stub breaking the protocol,
 * {@link IpcRingCorruptException}, never a read outside the body. Stateless: safe from any thread.
 */
final class StubStatusText
{
    private StubStatusText()
    {
    }

    /**
     * Reads an {@code int32 status, uint32 length, text} body.
     *
     * @param buffer the memory holding the body
     * @param offset the body's offset
     * @param length bytes of the body
     * @return null for status 0, else the text
     */
    static String failure(final MemorySegment buffer, final long offset, final int length)
    {
        final int status = buffer.get(SharedMemory.INT, offset);
        final int textLength = buffer.get(SharedMemory.INT, offset + 4);
        if (textLength < 0 || 8L + textLength > length)
        {
            throw new IpcRingCorruptException("status record with a text of " + textLength + " bytes in a body of "
                + length);
        }
        final String text = FrameText.get(buffer, offset + 8, textLength);
        return status == 0 ? null : text;
    }

    /**
     * Reads the text of a successful {@code int32 status, uint32 length, text} body.
     *
     * @param buffer the memory holding the body
     * @param offset the body's offset
     * @param length bytes of the body
     * @return the text
     */
    static String text(final MemorySegment buffer, final long offset, final int length)
    {
        final int textLength = buffer.get(SharedMemory.INT, offset + 4);
        if (textLength < 0 || 8L + textLength > length)
        {
            throw new IpcRingCorruptException("record with a text of " + textLength + " bytes in a body of "
                + length);
        }
        return FrameText.get(buffer, offset + 8, textLength);
    }
}
