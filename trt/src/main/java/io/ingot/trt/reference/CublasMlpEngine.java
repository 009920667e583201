package io.ingot.trt.reference;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.Engine;
import io.ingot.trt.gpu.DeviceStream;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One {@code cublas_mlp} instance: the weights on its device, two activation buffers of
 * {@code max_batch_size x widest layer} floats used in turn, a column of ones for the biases, a dense kernel bound
 * to the instance's stream. A batch is H2D of the input rows, one dense layer after another, D2H of the last
 * activations, then one wait.
 */
final class CublasMlpEngine implements Engine
{
    private final String label;
    private final String inputName;
    private final String outputName;
    private final MlpSpec spec;
    private final int maxRows;
    private final DeviceStream stream;
    private final DenseKernel kernel;
    private final MemorySegment[] weights;
    private final MemorySegment[] biases;
    private final MemorySegment ones;
    private final MemorySegment first;
    private final MemorySegment second;
    private boolean closed;

    CublasMlpEngine(final String label, final String inputName, final String outputName, final MlpSpec spec,
        final MlpWeights values, final int maxRows, final DeviceStream stream, final DenseKernel kernel)
    {
        this.label = label;
        this.inputName = inputName;
        this.outputName = outputName;
        this.spec = spec;
        this.maxRows = maxRows;
        this.stream = stream;
        this.kernel = kernel;
        this.weights = new MemorySegment[spec.layerCount()];
        this.biases = new MemorySegment[spec.layerCount()];
        try (Arena staging = Arena.ofConfined())
        {
            stream.makeCurrent();
            for (int layer = 0; layer < spec.layerCount(); layer++)
            {
                weights[layer] = upload(staging, values.weights(layer));
                biases[layer] = upload(staging, values.biases(layer));
            }
            final float[] onesValues = new float[maxRows];
            java.util.Arrays.fill(onesValues, 1f);
            ones = upload(staging, onesValues);
            final long activationBytes = (long) maxRows * spec.maxWidth() * Float.BYTES;
            first = stream.allocate(activationBytes);
            second = stream.allocate(activationBytes);
            // The staging arena closes at the end of this block: the uploads must have happened by then.
            stream.synchronize();
        }
        catch (final RuntimeException failure)
        {
            kernel.close();
            stream.close();
            throw failure;
        }
    }

    @Override
    public void execute(final Batch batch)
    {
        final BatchInput input = batch.input(inputName);
        if (input == null)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, label + ": input '" + inputName + "' is missing");
        }
        final long rows = input.dim(0);
        if (rows < 0 || rows > maxRows || input.rank() != 2 || input.dim(1) != spec.in(0))
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, label + ": input '" + inputName + "' has shape "
                + java.util.Arrays.toString(input.shape()) + "; expected [rows <= " + maxRows + ", " + spec.in(0)
                + "]");
        }
        if (rows == 0)
        {
            if (batch.isOutputRequested(outputName))
            {
                batch.allocateOutput(outputName, new long[] {0, spec.out(spec.layerCount() - 1)});
            }
            return;
        }
        stream.makeCurrent();
        boolean queued = false;
        try
        {
            final int r = (int) rows;
            queued = true;
            stream.copyToDevice(input.data(), first, rows * spec.in(0) * Float.BYTES);
            MemorySegment current = first;
            MemorySegment next = second;
            for (int layer = 0; layer < spec.layerCount(); layer++)
            {
                kernel.dense(current, weights[layer], biases[layer], ones, next, r, spec.in(layer), spec.out(layer));
                final MemorySegment swap = current;
                current = next;
                next = swap;
            }
            if (batch.isOutputRequested(outputName))
            {
                final int width = spec.out(spec.layerCount() - 1);
                final MemorySegment host = batch.allocateOutput(outputName, new long[] {rows, width});
                stream.copyToHost(current, host, rows * width * Float.BYTES);
            }
            stream.synchronize();
            queued = false;
        }
        catch (final RuntimeException failure)
        {
            throw new InferenceException(ErrorCode.INTERNAL, label + ": execution failed: " + failure.getMessage(),
                failure);
        }
        finally
        {
            if (queued)
            {
                try
                {
                    stream.synchronize();
                }
                catch (final RuntimeException ignored)
                {
                    // The batch already fails; the wait only protects the batch's memory.
                }
            }
        }
    }

    @Override
    public synchronized void close()
    {
        if (!closed)
        {
            closed = true;
            try
            {
                kernel.close();
            }
            finally
            {
                stream.close();
            }
        }
    }

    private MemorySegment upload(final Arena staging, final float[] values)
    {
        final MemorySegment host = staging.allocateFrom(ValueLayout.JAVA_FLOAT, values);
        final MemorySegment device = stream.allocate(host.byteSize());
        stream.copyToDevice(host, device, host.byteSize());
        return device;
    }
}
