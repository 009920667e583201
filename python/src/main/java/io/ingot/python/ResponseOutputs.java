package io.ingot.python;

import io.ingot.backend.ResponseSender;
import io.ingot.ipc.FrameText;
import io.ingot.ipc.IpcLimits;
import io.ingot.ipc.IpcRingCorruptException;
import io.ingot.ipc.SharedMemory;
import io.ingot.ipc.TensorEntryFlyweight;
import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;

/**
 * Copies the output entries of one response the stub wrote (in an EXECUTE_RESULT or a RESPONSE) into the response
 * a {@link ResponseSender} builds: each output with the name, data type and shape the model gave it, as Triton's Python
 * backend returns them (it holds no output to the configuration's dims or data type), once from shared memory into
 * the response's memory. What it checks is the frame: entries inside the record, tensors inside the data areas, a
 * byte count that matches the shape, well-formed {@code BYTES}; a violation is {@link IpcRingCorruptException}, which
 * stops the stub. Not thread-safe: the thread holding the stub's role.
 */
final class ResponseOutputs
{
    private final TensorEntryFlyweight entry = new TensorEntryFlyweight();
    private final long[][] shapes = new long[IpcLimits.MAX_RANK + 1][];

    ResponseOutputs()
    {
        for (int rank = 0; rank <= IpcLimits.MAX_RANK; rank++)
        {
            shapes[rank] = new long[rank];
        }
    }

    /**
     * @param sender the response's sender, or {@code null} to only check and skip the entries
     * @param region the instance's region, where the tensors lie
     * @param buffer the record's memory
     * @param cursor the first entry
     * @param end    the record's end
     * @param count  the number of entries
     * @return the offset after the entries
     */
    long copy(final ResponseSender sender, final StubRegion region, final MemorySegment buffer, final long cursor,
        final long end, final int count)
    {
        long at = cursor;
        for (int k = 0; k < count; k++)
        {
            need(at, TensorEntryFlyweight.DIMS_OFFSET, end);
            entry.wrap(buffer, at);
            final int rank = entry.rank();
            if (rank > IpcLimits.MAX_RANK)
            {
                throw new IpcRingCorruptException("output entry of rank " + rank);
            }
            final int nameLength = entry.nameLength();
            need(at, TensorEntryFlyweight.encodedLength(rank, nameLength), end);
            final String name = FrameText.get(buffer, entry.nameOffset(), nameLength);
            final DataType type = DataType.fromConfigNumber(entry.dataType());
            if (type == null)
            {
                throw new IpcRingCorruptException("output '" + name + "' has data type code " + entry.dataType());
            }
            final long[] shape = shapes[rank];
            long elements = 1;
            for (int d = 0; d < rank; d++)
            {
                shape[d] = entry.dim(d);
                if (shape[d] < 0)
                {
                    throw new IpcRingCorruptException("output '" + name + "' has dimension " + shape[d]);
                }
                elements *= shape[d];
            }
            final long offset = entry.tensorOffset();
            final long length = entry.length();
            if (!region.inDataAreas(offset, length))
            {
                throw new IpcRingCorruptException("output '" + name + "' at offset " + offset + ", length " + length
                    + " lies outside the data areas");
            }
            if (type == DataType.BYTES)
            {
                checkBytes(region.memory(), offset, length, elements, name);
            }
            else if (length != elements * type.byteSize())
            {
                throw new IpcRingCorruptException("output '" + name + "' has " + length + " bytes for " + elements
                    + " elements of " + type.wireName());
            }
            if (sender != null)
            {
                final MemorySegment target = sender.allocateOutput(name, type, shape, length);
                MemorySegment.copy(region.memory(), offset, target, 0, length);
            }
            at += TensorEntryFlyweight.encodedLength(rank, nameLength);
        }
        return at;
    }

    private static void checkBytes(final MemorySegment memory, final long offset, final long length,
        final long elements, final String name)
    {
        long position = 0;
        for (long e = 0; e < elements; e++)
        {
            if (position + 4 > length)
            {
                throw new IpcRingCorruptException("BYTES output '" + name + "' ends inside element " + e);
            }
            position += 4 + Integer.toUnsignedLong(memory.get(SharedMemory.INT, offset + position));
        }
        if (position != length)
        {
            throw new IpcRingCorruptException("BYTES output '" + name + "' has " + length + " bytes, its " + elements
                + " elements " + position);
        }
    }

    /**
     * @throws IpcRingCorruptException when {@code bytes} at {@code cursor} pass the record's end
     */
    static void need(final long cursor, final long bytes, final long end)
    {
        if (bytes < 0 || cursor + bytes > end)
        {
            throw new IpcRingCorruptException("a record ends at " + end + " but a field needs " + bytes
                + " bytes at " + cursor);
        }
    }
}
