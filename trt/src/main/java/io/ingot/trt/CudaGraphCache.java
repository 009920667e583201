package io.ingot.trt;

import io.ingot.trt.gpu.DeviceStream;
import io.ingot.trt.shim.TrtExecutionContext;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * CUDA graphs of one instance's {@code enqueueV3}, one per (profile, input shapes): after a shape has run
 * {@code warmupRuns} times normally, the next run is followed by a capture of the same work, and later batches of
 * that shape launch the graph instead of enqueueing kernel by kernel. Only the engine's work is captured; the
 * input and output copies stay outside the graph because the host memory of each batch differs.
 *
 * <p>At most {@code capacity} shapes are kept (no eviction: shapes beyond it simply run uncaptured). When a
 * capture fails (TensorRT work that cannot be captured, e.g. weight streaming) graphs are disabled for the
 * instance and a warning is logged once. Used by the instance's thread only; the per-batch path allocates nothing
 * except when a new shape is first seen.
 */
final class CudaGraphCache implements AutoCloseable
{
    private static final System.Logger LOG = System.getLogger(CudaGraphCache.class.getName());

    private final String label;
    private final DeviceStream stream;
    private final int warmupRuns;
    private final long[][] keys;
    private final int[] runs;
    private final MemorySegment[] graphs;
    private final long[] scratch;
    private int size;
    private int captured;
    private boolean disabled;

    /**
     * @param label      the instance's label for the warning
     * @param stream     the instance's stream
     * @param warmupRuns normal runs of a shape before it is captured, {@code >= 1}
     * @param capacity   most shapes kept
     * @param maxInputs  number of engine inputs
     */
    CudaGraphCache(final String label, final DeviceStream stream, final int warmupRuns, final int capacity,
        final int maxInputs)
    {
        this.label = label;
        this.stream = stream;
        this.warmupRuns = Math.max(1, warmupRuns);
        this.keys = new long[capacity][];
        this.runs = new int[capacity];
        this.graphs = new MemorySegment[capacity];
        this.scratch = new long[1 + maxInputs * 9];
    }

    /**
     * Runs the engine for the shapes already set on {@code context}: a captured graph where there is one.
     *
     * @param context    the context of the selected profile, input shapes set, addresses set
     * @param position   the profile's position in the instance's list
     * @param shapes     engine input shapes
     * @param ranks      their ranks
     * @param inputCount number of inputs
     */
    void run(final TrtExecutionContext context, final int position, final long[][] shapes, final int[] ranks,
        final int inputCount)
    {
        if (disabled)
        {
            context.enqueue(stream.handle());
            return;
        }
        final int length = key(position, shapes, ranks, inputCount);
        int slot = find(length);
        if (slot >= 0 && graphs[slot] != null)
        {
            stream.launchGraph(graphs[slot]);
            return;
        }
        context.enqueue(stream.handle());
        if (slot < 0)
        {
            if (size == keys.length)
            {
                return;
            }
            slot = size++;
            keys[slot] = Arrays.copyOf(scratch, length);
        }
        if (++runs[slot] >= warmupRuns)
        {
            capture(context, slot);
        }
    }

    /** @return how many graphs are captured now */
    int capturedCount()
    {
        return captured;
    }

    /** @return true when a capture failed and graphs are off for this instance */
    boolean isDisabled()
    {
        return disabled;
    }

    /** Drops every graph: they captured device addresses that changed. */
    void invalidate()
    {
        for (int i = 0; i < size; i++)
        {
            if (graphs[i] != null)
            {
                stream.destroyGraph(graphs[i]);
                graphs[i] = null;
            }
            keys[i] = null;
            runs[i] = 0;
        }
        size = 0;
        captured = 0;
    }

    @Override
    public void close()
    {
        invalidate();
    }

    private void capture(final TrtExecutionContext context, final int slot)
    {
        stream.beginCapture();
        try
        {
            context.enqueue(stream.handle());
        }
        catch (final RuntimeException failure)
        {
            try
            {
                stream.destroyGraph(stream.endCapture());
            }
            catch (final RuntimeException ignored)
            {
                // The capture is already broken; ending it only restores the stream.
            }
            disable(failure);
            return;
        }
        try
        {
            graphs[slot] = stream.endCapture();
            captured++;
        }
        catch (final RuntimeException failure)
        {
            disable(failure);
        }
    }

    private void disable(final RuntimeException failure)
    {
        disabled = true;
        LOG.log(System.Logger.Level.WARNING, label + ": CUDA graph capture failed, running without graphs: "
            + failure.getMessage());
    }

    private int key(final int position, final long[][] shapes, final int[] ranks, final int inputCount)
    {
        int length = 0;
        scratch[length++] = position;
        for (int i = 0; i < inputCount; i++)
        {
            scratch[length++] = ranks[i];
            for (int d = 0; d < ranks[i]; d++)
            {
                scratch[length++] = shapes[i][d];
            }
        }
        return length;
    }

    private int find(final int length)
    {
        for (int i = 0; i < size; i++)
        {
            if (Arrays.equals(keys[i], 0, keys[i].length, scratch, 0, length))
            {
                return i;
            }
        }
        return -1;
    }
}
