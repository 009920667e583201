package io.ingot.onnx;

import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.Engine;
import io.ingot.onnx.capi.OrtEnv;
import io.ingot.onnx.capi.OrtException;
import io.ingot.onnx.capi.OrtIoBindingApi;
import io.ingot.onnx.capi.OrtSession;
import io.ingot.onnx.capi.OrtTypes;
import io.ingot.onnx.capi.OrtValueApi;
import io.ingot.tensor.DataType;

import java.util.concurrent.atomic.LongAdder;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;

/**
 * Runs batches of one model instance on an ONNX Runtime session (its own, or one shared with the model's other
 * instances: {@code RunWithBinding} is safe from several threads, each with its own {@code OrtIoBinding}) through ONNX
 * Runtime's IO binding.
 *
 * <p>Per batch: every input becomes an {@code OrtValue} over the batch's own memory ({@code
 * CreateTensorWithDataAsOrtValue}: no copy) bound with {@code BindInput}; every requested output whose shape is known
 * before the run ({@link OutputBinding#plannedShape}) gets its memory from {@link Batch#allocateOutput} (the
 * response's own memory for a batch of one; for a larger batch, response memory the runtime shares out as slices) and
 * is bound with {@code BindOutput} over that memory, so ONNX Runtime
 * writes the result in place and nothing is copied after the run. An output whose shape only the run can tell, a
 * string output, and an output whose allocated memory is on the Java heap are bound with {@code BindOutputToDevice}:
 * ONNX Runtime allocates them, and each is copied once, after the run, into memory from {@code allocateOutput} (the
 * size is not known earlier, so there is nothing to write into before). The output of a {@code sequence_batching.state}
 * takes that path as well, so that its shape is checked against the state's configured dims before it becomes the
 * sequence's next state (the runtime copies state outputs into the sequences' slots anyway). After the run the
 * binding is cleared, so ONNX Runtime keeps no reference to Ingot's memory, and every value made for the batch is
 * released.
 *
 * <p>Steady state allocates no Java objects per batch on the fixed-shape path beyond what the SPI hands out; the
 * native scratch (names, shapes, out-parameters) is allocated once per engine. Not thread-safe: the instance's thread
 * only.
 */
final class OnnxEngine implements Engine
{
    private static final System.Logger LOG = System.getLogger(OnnxEngine.class.getName());
    /** Bytes copied after runs (outputs left to the run), every engine together; only that path counts. */
    static final LongAdder COPIED_AFTER_RUN = new LongAdder();

    private final String modelName;
    private final OrtSession session;
    private final boolean ownsSession;
    private final InputBinding[] inputs;
    private final OutputBinding[] outputs;
    private final OrtEnv env;
    private final Arena arena;
    private final MemorySegment binding;
    private final MemorySegment runOptions;
    private final MemorySegment out;
    private final MemorySegment count;
    private MemorySegment shape;
    /** The values made for the batch, released after it. */
    private final MemorySegment[] values;
    private int valueCount;
    /** Per output: -1 when bound to memory of ours (or not bound), else its index among the outputs bound. */
    private final int[] deferredIndex;
    /** Per output: memory allocated before the run that ONNX Runtime could not write (heap memory), or null. */
    private final MemorySegment[] heapTargets;
    private int boundOutputs;
    private boolean symbolPlanned;

    /**
     * @param modelName      the model, for messages
     * @param session        the session to run
     * @param ownsSession    whether {@link #close()} closes the session
     * @param inputs         the inputs (configured ones, sequence controls, state inputs)
     * @param outputs        the outputs (configured ones, state outputs)
     * @param arena          owns the bindings' C names; closed with the engine
     * @param arenaShrinkage the value of {@code memory.enable_memory_arena_shrinkage} for every run, or {@code null}
     */
    OnnxEngine(final String modelName, final OrtSession session, final boolean ownsSession,
        final InputBinding[] inputs, final OutputBinding[] outputs, final Arena arena, final String arenaShrinkage)
    {
        this.modelName = modelName;
        this.session = session;
        this.ownsSession = ownsSession;
        this.inputs = inputs;
        this.outputs = outputs;
        this.env = OrtEnv.get();
        this.arena = arena;
        this.out = arena.allocate(ValueLayout.ADDRESS);
        this.count = arena.allocate(ValueLayout.JAVA_LONG);
        this.shape = arena.allocate(ValueLayout.JAVA_LONG, 16);
        this.values = new MemorySegment[inputs.length + outputs.length];
        this.deferredIndex = new int[outputs.length];
        this.heapTargets = new MemorySegment[outputs.length];
        OrtIoBindingApi.CreateIoBinding(session.handle(), out);
        this.binding = out.get(ValueLayout.ADDRESS, 0);
        MemorySegment options = MemorySegment.NULL;
        try
        {
            OrtIoBindingApi.CreateRunOptions(out);
            options = out.get(ValueLayout.ADDRESS, 0);
            if (arenaShrinkage != null)
            {
                OrtIoBindingApi.AddRunConfigEntry(options, arena.allocateFrom(SessionSettings.ARENA_SHRINKAGE),
                    arena.allocateFrom(arenaShrinkage));
            }
        }
        catch (final RuntimeException e)
        {
            OrtIoBindingApi.ReleaseRunOptions(options);
            OrtIoBindingApi.ReleaseIoBinding(binding);
            throw e;
        }
        this.runOptions = options;
    }

    @Override
    public void execute(final Batch batch)
    {
        try
        {
            bindInputs(batch);
            if (!bindOutputs(batch))
            {
                return;
            }
            run();
            readDeferredOutputs(batch);
        }
        finally
        {
            OrtIoBindingApi.ClearBoundInputs(binding);
            OrtIoBindingApi.ClearBoundOutputs(binding);
            for (int i = 0; i < valueCount; i++)
            {
                OrtValueApi.ReleaseValue(values[i]);
                values[i] = null;
            }
            valueCount = 0;
            java.util.Arrays.fill(heapTargets, null);
        }
    }

    private void bindInputs(final Batch batch)
    {
        for (final InputBinding input : inputs)
        {
            final BatchInput data = batch.input(input.name());
            if (data == null)
            {
                continue;
            }
            final MemorySegment dims = shapeScratch(input.maxRank(data.rank()));
            final int rank = input.writeShape(data, dims);
            final MemorySegment value;
            if (input.dataType() == DataType.BYTES)
            {
                value = TensorValues.strings(env.allocator(), data.data(), elementCount(dims, rank), dims, rank, out);
            }
            else
            {
                final long bytes = elementCount(dims, rank) * input.dataType().byteSize();
                if (data.data().byteSize() < bytes)
                {
                    throw new IllegalArgumentException("model '" + modelName + "': input '" + input.name()
                        + "' has " + data.data().byteSize() + " bytes, its shape needs " + bytes);
                }
                value = TensorValues.over(env.cpuMemory(), data.data(), bytes, dims, rank, input.onnxType(), out);
            }
            values[valueCount++] = value;
            OrtIoBindingApi.BindInput(binding, input.cName(), value);
        }
    }

    /** @return whether any output is bound (a batch nobody wants an output of is not run) */
    private boolean bindOutputs(final Batch batch)
    {
        boundOutputs = 0;
        symbolPlanned = false;
        for (int o = 0; o < outputs.length; o++)
        {
            final OutputBinding output = outputs[o];
            deferredIndex[o] = -1;
            if (!batch.isOutputRequested(output.name()))
            {
                continue;
            }
            // String outputs have no size before the run; they are always encoded after it. A state output is left to
            // the run too, so that a shape the state must not take is reported as such, not as a failed run.
            final long[] planned = output.dataType() == DataType.BYTES || output.isState() ? null
                : output.plannedShape(batch);
            MemorySegment memory = null;
            if (planned != null)
            {
                memory = batch.allocateOutput(output.name(), planned);
                if (!memory.isNative())
                {
                    // Heap memory cannot back an ONNX Runtime tensor: let the run allocate, copy into it afterwards.
                    heapTargets[o] = memory;
                    memory = null;
                }
            }
            if (memory == null)
            {
                OrtIoBindingApi.BindOutputToDevice(binding, output.cName(), env.cpuMemory());
                deferredIndex[o] = boundOutputs++;
                continue;
            }
            final long[] onnxShape = output.onnxShape(planned);
            final MemorySegment dims = shapeScratch(onnxShape.length);
            MemorySegment.copy(onnxShape, 0, dims, ValueLayout.JAVA_LONG, 0, onnxShape.length);
            final MemorySegment value = TensorValues.over(env.cpuMemory(), memory, memory.byteSize(), dims,
                onnxShape.length, output.onnxType(), out);
            values[valueCount++] = value;
            OrtIoBindingApi.BindOutput(binding, output.cName(), value);
            boundOutputs++;
            symbolPlanned |= output.lastPlanUsedSymbols();
        }
        return boundOutputs > 0;
    }

    private void run()
    {
        try
        {
            OrtIoBindingApi.RunWithBinding(session.handle(), runOptions, binding);
        }
        catch (final OrtException e)
        {
            if (symbolPlanned && e.ortMessage().toLowerCase(Locale.ROOT).contains("shape"))
            {
                for (final OutputBinding output : outputs)
                {
                    if (output.lastPlanUsedSymbols())
                    {
                        output.distrustSymbols();
                        LOG.log(System.Logger.Level.WARNING, "model ''{0}'': output ''{1}'' did not have the shape"
                            + " its symbolic dimensions promised; it is now left to ONNX Runtime and copied ({2})",
                            modelName, output.name(), e.getMessage());
                    }
                }
            }
            throw new IllegalStateException("model '" + modelName + "': ONNX Runtime failed to run the batch: "
                + e.getMessage(), e);
        }
    }

    @SuppressWarnings("restricted") // GetBoundOutputValues returns an unsized OrtValue** of the count it reports
    private void readDeferredOutputs(final Batch batch)
    {
        boolean any = false;
        for (final int index : deferredIndex)
        {
            any |= index >= 0;
        }
        if (!any)
        {
            return;
        }
        OrtIoBindingApi.GetBoundOutputValues(binding, env.allocator(), out, count);
        final long produced = count.get(ValueLayout.JAVA_LONG, 0);
        final MemorySegment array = out.get(ValueLayout.ADDRESS, 0).reinterpret(produced * ValueLayout.ADDRESS
            .byteSize());
        try
        {
            for (int o = 0; o < outputs.length; o++)
            {
                if (deferredIndex[o] >= 0)
                {
                    readOutput(batch, o, array.getAtIndex(ValueLayout.ADDRESS, deferredIndex[o]));
                }
            }
        }
        finally
        {
            for (long i = 0; i < produced; i++)
            {
                OrtValueApi.ReleaseValue(array.getAtIndex(ValueLayout.ADDRESS, i));
            }
            OrtValueApi.AllocatorFree(env.allocator(), array);
        }
    }

    private void readOutput(final Batch batch, final int o, final MemorySegment value)
    {
        final OutputBinding output = outputs[o];
        final OrtTypes.Shape produced = OrtTypes.ofValue(value);
        if (output.isState())
        {
            output.checkState(modelName, produced.dims());
        }
        final long[] configShape = output.configShape(produced.dims());
        final long elements = Shapes.elementCount(produced.dims());
        if (output.dataType() == DataType.BYTES)
        {
            final MemorySegment target = batch.allocateOutput(output.name(), configShape,
                TensorValues.encodedSize(value, elements, out));
            TensorValues.encodeStrings(value, elements, target, out);
            COPIED_AFTER_RUN.add(target.byteSize());
            return;
        }
        MemorySegment target = heapTargets[o];
        if (target == null)
        {
            target = batch.allocateOutput(output.name(), configShape);
        }
        final long bytes = elements * output.dataType().byteSize();
        if (target.byteSize() != bytes)
        {
            throw new IllegalStateException("model '" + modelName + "': output '" + output.name() + "' has shape "
                + Shapes.text(produced.dims()) + " (" + bytes + " bytes), " + target.byteSize() + " bytes were"
                + " allocated for it");
        }
        TensorValues.copyOut(value, target, out);
        COPIED_AFTER_RUN.add(bytes);
    }

    private MemorySegment shapeScratch(final int rank)
    {
        if (shape.byteSize() < (long) rank * Long.BYTES)
        {
            shape = arena.allocate(ValueLayout.JAVA_LONG, rank);
        }
        return shape;
    }

    private static long elementCount(final MemorySegment dims, final int rank)
    {
        long elements = 1;
        for (int d = 0; d < rank; d++)
        {
            elements = Math.multiplyExact(elements, dims.getAtIndex(ValueLayout.JAVA_LONG, d));
        }
        return elements;
    }

    /** @return the session this engine runs (shared or its own). */
    OrtSession session()
    {
        return session;
    }

    /**
     * True: a run is one call into ONNX Runtime's C API, whose sessions are safe from any thread (the operators run
     * on the session's own thread pools, not the caller's; the CUDA execution provider sets its device per run), and
     * this engine's native scratch comes from a shared arena. The engine keeps no state tied to a thread.
     */
    @Override
    public boolean runsOnAnyThread()
    {
        return true;
    }

    @Override
    public void close()
    {
        try
        {
            OrtIoBindingApi.ReleaseIoBinding(binding);
            OrtIoBindingApi.ReleaseRunOptions(runOptions);
            if (ownsSession)
            {
                session.close();
            }
        }
        finally
        {
            arena.close();
        }
    }
}
