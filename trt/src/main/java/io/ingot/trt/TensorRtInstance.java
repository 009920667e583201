package io.ingot.trt;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.Engine;
import io.ingot.trt.gpu.DeviceStream;
import io.ingot.trt.shim.EngineSignature;
import io.ingot.trt.shim.ShapeRange;
import io.ingot.trt.shim.Shapes;
import io.ingot.trt.shim.TrtCudaEngine;
import io.ingot.trt.shim.TrtExecutionContext;
import io.ingot.trt.shim.TrtShim;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * One TensorRT model instance: an execution context per optimization profile it uses (all on one engine), one
 * stream, and one device buffer per engine I/O tensor sized for the largest shapes its profiles allow.
 *
 * <p>A batch runs as: pick the profile whose range holds the input shapes (closest to OPT), set the input shapes,
 * copy each input host-to-device, query the output shapes, get output memory from the batch, {@code enqueueV3}
 * (or launch the CUDA graph captured for these shapes), copy each requested output device-to-host, all queued on
 * the instance's stream; then wait for the stream. The contexts of one instance share the buffers: an instance
 * runs one batch at a time.
 *
 * <p>The per-batch path allocates only the response shape arrays handed to {@link Batch#allocateOutput}.
 */
final class TensorRtInstance implements Engine
{
    private final String label;
    private final ModelBinding binding;
    private final DeviceStream stream;
    private final TrtExecutionContext[] contexts;
    private final ProfileSelector selector;
    private final CudaGraphCache graphs;
    private final Runnable onClose;

    private final int inputCount;
    private final TensorBinding[] tensors;
    private final MemorySegment[] cNames;
    private final MemorySegment[] buffers;
    private final long[] capacities;
    private final long[][] shapes;
    private final int[] ranks;
    private final long[] byteSizes;
    private final MemorySegment[] hostInputs;
    private final MemorySegment[] hostOutputs;
    private final long[] requestShape = new long[TrtShim.MAX_DIMS];
    private boolean closed;

    private TensorRtInstance(final String label, final ModelBinding binding, final DeviceStream stream,
        final TrtExecutionContext[] contexts, final ProfileSelector selector, final boolean useGraphs,
        final int graphWarmupRuns, final int graphCapacity, final TrtCudaEngine engine, final Runnable onClose)
    {
        this.label = label;
        this.binding = binding;
        this.stream = stream;
        this.contexts = contexts;
        this.selector = selector;
        this.onClose = onClose;
        this.inputCount = binding.inputs().size();
        final List<TensorBinding> all = new ArrayList<>(binding.inputs());
        all.addAll(binding.outputs());
        this.tensors = all.toArray(TensorBinding[]::new);
        this.cNames = new MemorySegment[tensors.length];
        for (int i = 0; i < tensors.length; i++)
        {
            cNames[i] = engine.cName(tensors[i].name());
        }
        this.buffers = new MemorySegment[tensors.length];
        this.capacities = new long[tensors.length];
        this.shapes = new long[tensors.length][TrtShim.MAX_DIMS];
        this.ranks = new int[tensors.length];
        this.byteSizes = new long[tensors.length];
        this.hostInputs = new MemorySegment[tensors.length];
        this.hostOutputs = new MemorySegment[tensors.length];
        this.graphs = useGraphs && stream.supportsGraphs()
            ? new CudaGraphCache(label, stream, graphWarmupRuns, graphCapacity, inputCount) : null;
    }

    /**
     * Creates the instance: contexts per profile, buffers for the profiles' largest shapes, addresses bound.
     *
     * @param label           {@code model 'm' version v instance 'i'}
     * @param binding         the checked configuration
     * @param engine          the engine on the instance's device
     * @param stream          the instance's stream (owned by the instance from now on)
     * @param profiles        the profile indices the instance uses
     * @param useGraphs       whether to capture CUDA graphs
     * @param graphWarmupRuns normal runs of a shape before capture
     * @param graphCapacity   most graphs kept
     * @param onClose         runs when the instance closes (releases its profiles)
     * @return the instance
     */
    static TensorRtInstance open(final String label, final ModelBinding binding, final TrtCudaEngine engine,
        final DeviceStream stream, final List<Integer> profiles, final boolean useGraphs, final int graphWarmupRuns,
        final int graphCapacity, final Runnable onClose)
    {
        final List<TrtExecutionContext> contexts = new ArrayList<>();
        TensorRtInstance instance = null;
        try
        {
            stream.makeCurrent();
            for (final int profile : profiles)
            {
                final TrtExecutionContext context = engine.createContext();
                contexts.add(context);
                if (profile != 0)
                {
                    // A new context starts on profile 0; selecting it again could collide with another context.
                    context.setOptimizationProfile(profile, stream.handle());
                }
            }
            stream.synchronize();
            final ProfileSelector selector = new ProfileSelector(binding.signature(), profiles,
                binding.inputs().stream().map(TensorBinding::name).toList());
            instance = new TensorRtInstance(label, binding, stream, contexts.toArray(TrtExecutionContext[]::new),
                selector, useGraphs, graphWarmupRuns, graphCapacity, engine, onClose);
            instance.allocateForLargestShapes(profiles);
            return instance;
        }
        catch (final RuntimeException failure)
        {
            if (instance != null)
            {
                instance.close();
            }
            else
            {
                contexts.forEach(TrtExecutionContext::close);
                stream.close();
                onClose.run();
            }
            throw failure;
        }
    }

    /**
     * False: each batch makes the instance's device current on the thread that runs it ({@code cudaSetDevice},
     * per host thread, left so afterwards), which a caller's thread must not inherit, and waits for the stream, which
     * would hold the caller's thread for the whole GPU execution.
     */
    @Override
    public boolean runsOnAnyThread()
    {
        return false;
    }

    @Override
    public void execute(final Batch batch)
    {
        stream.makeCurrent();
        for (int i = 0; i < inputCount; i++)
        {
            final TensorBinding tensor = tensors[i];
            final BatchInput input = batch.input(tensor.name());
            if (input == null)
            {
                throw new InferenceException(ErrorCode.INVALID_ARG, label + ": input '" + tensor.name()
                    + "' is missing; the TensorRT engine needs every input");
            }
            final int rank = input.rank();
            for (int d = 0; d < rank; d++)
            {
                requestShape[d] = input.dim(d);
            }
            ranks[i] = tensor.toEngineShape(requestShape, rank, shapes[i]);
            hostInputs[i] = input.data();
            byteSizes[i] = hostInputs[i].byteSize();
        }
        final int position = selector.select(shapes, ranks);
        if (position < 0)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, label + ": no optimization profile of this instance "
                + "accepts the batch (batch size"
                + " " + batch.batchSize() + "): " + selector.explainMismatch(shapes, ranks));
        }
        final TrtExecutionContext context = contexts[position];
        for (int i = 0; i < inputCount; i++)
        {
            if (!context.setInputShape(cNames[i], shapes[i], ranks[i]))
            {
                throw new InferenceException(ErrorCode.INVALID_ARG, label + ": TensorRT rejected shape "
                    + Shapes.format(shapes[i], ranks[i]) + " of input '" + tensors[i].name()
                    + "' (optimization profile " + selector.profileAt(position) + "): " + TrtShim.lastError());
            }
        }
        boolean queued = false;
        try
        {
            for (int i = 0; i < inputCount; i++)
            {
                ensureCapacity(i, byteSizes[i]);
                queued = true;
                stream.copyToDevice(hostInputs[i], buffers[i], byteSizes[i]);
            }
            for (int o = inputCount; o < tensors.length; o++)
            {
                prepareOutput(batch, context, o);
            }
            if (graphs != null)
            {
                graphs.run(context, position, shapes, ranks, inputCount);
            }
            else
            {
                context.enqueue(stream.handle());
            }
            for (int o = inputCount; o < tensors.length; o++)
            {
                if (hostOutputs[o] != null && byteSizes[o] > 0)
                {
                    stream.copyToHost(buffers[o], hostOutputs[o], byteSizes[o]);
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
                // Never return while copies from or to the batch's memory may still run.
                awaitQuietly();
            }
            java.util.Arrays.fill(hostInputs, null);
            java.util.Arrays.fill(hostOutputs, null);
        }
    }

    private void prepareOutput(final Batch batch, final TrtExecutionContext context, final int o)
    {
        final TensorBinding tensor = tensors[o];
        ranks[o] = context.tensorShape(cNames[o], shapes[o]);
        if (Shapes.isDynamic(shapes[o], ranks[o]))
        {
            throw new InferenceException(ErrorCode.INTERNAL, label + ": output '" + tensor.name() + "' has shape "
                + Shapes.format(shapes[o], ranks[o]) + " after the input shapes were set: a data-dependent "
                + "output shape, which Ingot's TensorRT backend does not serve");
        }
        byteSizes[o] = Shapes.volume(shapes[o], ranks[o]) * tensor.storageBytes();
        ensureCapacity(o, byteSizes[o]);
        if (tensor.configured() && batch.isOutputRequested(tensor.name()))
        {
            final MemorySegment host = batch.allocateOutput(tensor.name(),
                tensor.toResponseShape(shapes[o], ranks[o]));
            if (host.byteSize() != byteSizes[o])
            {
                throw new InferenceException(ErrorCode.INTERNAL, label + ": output '" + tensor.name() + "' has "
                    + byteSizes[o] + " bytes for engine shape " + Shapes.format(shapes[o], ranks[o])
                    + " but the response expects " + host.byteSize());
            }
            hostOutputs[o] = host;
        }
    }

    private void awaitQuietly()
    {
        try
        {
            stream.synchronize();
        }
        catch (final RuntimeException ignored)
        {
            // The batch already fails with the first error; this wait only protects its memory.
        }
    }

    /** @return the CUDA graphs captured so far ({@code 0} when graphs are off) */
    int capturedGraphs()
    {
        return graphs == null ? 0 : graphs.capturedCount();
    }

    /** @return the device buffer capacities, in binding order (inputs, then outputs) */
    long[] capacities()
    {
        return capacities.clone();
    }

    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            stream.makeCurrent();
            stream.synchronize();
        }
        catch (final RuntimeException ignored)
        {
            // Closing proceeds: the stream's own close waits again and frees what it can.
        }
        if (graphs != null)
        {
            graphs.close();
        }
        for (final TrtExecutionContext context : contexts)
        {
            context.close();
        }
        stream.close();
        onClose.run();
    }

    private void allocateForLargestShapes(final List<Integer> profiles)
    {
        final EngineSignature signature = binding.signature();
        final long[] needed = new long[tensors.length];
        for (int p = 0; p < contexts.length; p++)
        {
            final TrtExecutionContext context = contexts[p];
            for (int i = 0; i < inputCount; i++)
            {
                final ShapeRange range = signature.profiles().get(profiles.get(p)).range(tensors[i].name());
                final long[] max = range != null ? range.max() : tensors[i].engineTensor().shape();
                if (Shapes.isDynamic(max, max.length))
                {
                    throw new IllegalStateException(label + ": input '" + tensors[i].name()
                        + "' has no maximum shape in optimization profile " + profiles.get(p));
                }
                if (!context.setInputShape(cNames[i], max, max.length))
                {
                    throw new IllegalStateException(label + ": TensorRT rejected the maximum shape "
                        + Shapes.format(max) + " of input '" + tensors[i].name() + "' in optimization profile "
                        + profiles.get(p) + ": " + TrtShim.lastError());
                }
            }
            for (int t = 0; t < tensors.length; t++)
            {
                final int rank = context.tensorShape(cNames[t], shapes[t]);
                if (Shapes.isDynamic(shapes[t], rank))
                {
                    throw new IllegalStateException(label + ": " + (t < inputCount ? "input '" : "output '")
                        + tensors[t].name() + "' has shape " + Shapes.format(shapes[t], rank) + " at the maximum "
                        + "input shapes of profile " + profiles.get(p) + ": a data-dependent shape, which Ingot's "
                        + "TensorRT backend does not serve");
                }
                needed[t] = Math.max(needed[t], Shapes.volume(shapes[t], rank) * tensors[t].storageBytes());
            }
        }
        for (int t = 0; t < tensors.length; t++)
        {
            reallocate(t, needed[t]);
        }
    }

    private void ensureCapacity(final int tensor, final long byteSize)
    {
        if (byteSize > capacities[tensor])
        {
            // Only reached if TensorRT reports a shape beyond what the profiles' maxima produced.
            stream.synchronize();
            reallocate(tensor, byteSize);
            if (graphs != null)
            {
                graphs.invalidate();
            }
        }
    }

    private void reallocate(final int tensor, final long byteSize)
    {
        if (buffers[tensor] != null)
        {
            stream.free(buffers[tensor]);
        }
        // TensorRT wants a valid, aligned address even for an empty tensor.
        final long size = Math.max(byteSize, 256);
        buffers[tensor] = stream.allocate(size);
        capacities[tensor] = size;
        for (final TrtExecutionContext context : contexts)
        {
            context.setTensorAddress(cNames[tensor], buffers[tensor]);
        }
    }
}
