package io.ingot.trt.reference;

import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.Engine;
import io.ingot.config.proto.ModelConfig;
import io.ingot.trt.gpu.DeviceStream;

import java.lang.foreign.MemorySegment;

/**
 * One {@code cuda_identity} instance: per input an input and an output device buffer (sized for the largest
 * batch where the dims are fixed, grown on demand where they are not), and the instance's stream. A batch is
 * H2D, D2D, D2H per tensor, then one wait.
 */
final class CudaIdentityEngine implements Engine
{
    private final String label;
    private final DeviceStream stream;
    private final String[] inputs;
    private final String[] outputs;
    private final MemorySegment[] deviceInputs;
    private final MemorySegment[] deviceOutputs;
    private final long[] capacities;
    private final MemorySegment[] hostOutputs;
    private boolean closed;

    CudaIdentityEngine(final String label, final ModelConfig config, final DeviceStream stream)
    {
        this.label = label;
        this.stream = stream;
        final int count = config.getInputCount();
        this.inputs = new String[count];
        this.outputs = new String[count];
        this.deviceInputs = new MemorySegment[count];
        this.deviceOutputs = new MemorySegment[count];
        this.capacities = new long[count];
        this.hostOutputs = new MemorySegment[count];
        try
        {
            stream.makeCurrent();
            for (int i = 0; i < count; i++)
            {
                inputs[i] = config.getInput(i).getName();
                outputs[i] = config.getOutput(i).getName();
                final long largest = largestBytes(config, i);
                if (largest > 0)
                {
                    grow(i, largest);
                }
            }
        }
        catch (final RuntimeException failure)
        {
            stream.close();
            throw failure;
        }
    }

    @Override
    public void execute(final Batch batch)
    {
        stream.makeCurrent();
        boolean queued = false;
        try
        {
            for (int i = 0; i < inputs.length; i++)
            {
                final BatchInput input = batch.input(inputs[i]);
                if (input == null)
                {
                    throw new InferenceException(ErrorCode.INVALID_ARG, label + ": input '" + inputs[i]
                        + "' is missing");
                }
                final MemorySegment data = input.data();
                final long bytes = data.byteSize();
                if (bytes > capacities[i])
                {
                    stream.synchronize();
                    grow(i, bytes);
                }
                if (bytes == 0)
                {
                    continue;
                }
                queued = true;
                stream.copyToDevice(data, deviceInputs[i], bytes);
                stream.copyOnDevice(deviceInputs[i], deviceOutputs[i], bytes);
                if (batch.isOutputRequested(outputs[i]))
                {
                    hostOutputs[i] = batch.allocateOutput(outputs[i], input.shape());
                    stream.copyToHost(deviceOutputs[i], hostOutputs[i], bytes);
                }
            }
            stream.synchronize();
            queued = false;
        }
        catch (final InferenceException failure)
        {
            throw failure;
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
            java.util.Arrays.fill(hostOutputs, null);
        }
    }

    @Override
    public synchronized void close()
    {
        if (!closed)
        {
            closed = true;
            stream.close();
        }
    }

    private void grow(final int index, final long bytes)
    {
        if (deviceInputs[index] != null)
        {
            stream.free(deviceInputs[index]);
            stream.free(deviceOutputs[index]);
        }
        deviceInputs[index] = stream.allocate(bytes);
        deviceOutputs[index] = stream.allocate(bytes);
        capacities[index] = bytes;
    }

    /** @return bytes of the largest batch of input {@code i}, or 0 when a dimension is variable */
    private static long largestBytes(final ModelConfig config, final int i)
    {
        long elements = Math.max(1, config.getMaxBatchSize());
        for (final long dim : config.getInput(i).getDimsList())
        {
            if (dim < 0)
            {
                return 0;
            }
            elements *= dim;
        }
        return elements * DataType.fromConfigNumber(config.getInput(i).getDataType().getNumber()).byteSize();
    }
}
