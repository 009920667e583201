package io.ingot.python;

import io.ingot.ipc.SlabAllocator;

import java.util.HashMap;
import java.util.Map;

/**
 * The input area of an instance's region, one block per batch: a batch's inputs (and its EXECUTE body, when that
 * travels indirectly) stay allocated until the stub reports that the model holds no array over them any more
 * (RELEASE), so that a model may keep a request's inputs past {@code execute} (a decoupled model's response thread
 * does), as Triton's Python backend lets it. Not thread-safe: used by whichever thread holds the stub's role
 * ({@link StubSession}).
 */
final class InputBlocks
{
    /** One batch's allocations: its inputs, and an indirect body (or -1). */
    private record Block(long offset, long length, long bodyOffset, long bodyLength)
    {
    }

    private final SlabAllocator area;
    private final Map<Long, Block> live = new HashMap<>();
    private long nextId = 1;

    /**
     * @param area the input area's allocator
     */
    InputBlocks(final SlabAllocator area)
    {
        this.area = area;
    }

    /**
     * Allocates the block of a new batch.
     *
     * @param bytes its inputs' bytes
     * @param model the model, for the message
     * @return the batch's id
     * @throws PythonExecuteException when the area has no room
     */
    long allocate(final long bytes, final String model)
    {
        final long length = Math.max(bytes, 1);  // the stub views [offset, offset + length) as the batch's block
        final long offset = area.allocate(length);
        if (offset == SlabAllocator.FAILED)
        {
            throw new PythonExecuteException("python model '" + model + "': the batch's inputs need " + bytes
                + " bytes of shared memory, and the instance's input area has " + area.freeBytes() + " of "
                + area.capacity() + " bytes free" + (live.isEmpty() ? "" : " (" + live.size() + " earlier batch"
                + (live.size() == 1 ? "'s inputs are" : "es' inputs are") + " still referenced by the model)")
                + "; raise the model's parameter " + PythonSettings.SHM_BYTES + " or lower max_batch_size");
        }
        final long id = nextId++;
        live.put(id, new Block(offset, length, -1, 0));
        return id;
    }

    /**
     * @param id a live batch
     * @return the offset of its block
     */
    long offset(final long id)
    {
        return live.get(id).offset();
    }

    /**
     * Ties an indirect EXECUTE body to its batch, to be freed with it.
     *
     * @param id     the batch
     * @param offset the body's offset
     * @param length its bytes
     */
    void attachBody(final long id, final long offset, final long length)
    {
        final Block block = live.get(id);
        live.put(id, new Block(block.offset(), block.length(), offset, length));
    }

    /**
     * Frees a batch's block (RELEASE); an unknown id (a stub that repeats itself) is ignored.
     *
     * @param id the batch
     */
    void release(final long id)
    {
        final Block block = live.remove(id);
        if (block != null)
        {
            area.free(block.offset(), block.length());
            if (block.bodyOffset() >= 0)
            {
                area.free(block.bodyOffset(), block.bodyLength());
            }
        }
    }

    /**
     * Frees a batch whose EXECUTE never reached the stub.
     *
     * @param id the batch
     */
    void abandon(final long id)
    {
        release(id);
    }

    /** @return the number of batches whose inputs are still allocated */
    int liveBatches()
    {
        return live.size();
    }
}
