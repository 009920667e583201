package io.ingot.benchmarks.onnxjni;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import io.ingot.tensor.DataType;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.Engine;

import java.util.concurrent.atomic.LongAdder;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Runs batches of one model instance on an ONNX Runtime session (its own, or one shared with the model's other
 * instances: {@link OrtSession#run} is safe to call from several threads).
 *
 * <p>Per batch: every input becomes a tensor over the batch's own memory (no copy); every requested output whose
 * shape is known beforehand ({@link OutputBinding#plannedShape}) gets its memory from
 * {@link Batch#allocateOutput} and is passed as a pinned output, so ONNX Runtime writes the result in place. The
 * rest (and string outputs, encoded in Triton's {@code BYTES} layout) are left to ONNX Runtime and copied into memory
 * from {@code allocateOutput} after the run. The tensor objects are closed after each run; the maps holding them are
 * reused.
 */
final class OnnxEngine implements Engine
{
    /** Bytes this backend copied after runs (outputs left to ONNX Runtime), all engines together: the benchmark's
     *  count of the copies the Java API costs (each such byte was copied once more inside the Java API before). */
    static final LongAdder COPIED_AFTER_RUN = new LongAdder();

    private static final System.Logger LOG = System.getLogger(OnnxEngine.class.getName());

    private final String modelName;
    private final OrtEnvironment env;
    private final OrtSession session;
    private final boolean ownsSession;
    private final InputBinding[] inputs;
    private final OutputBinding[] outputs;

    private final Map<String, OnnxTensor> inputTensors = new HashMap<>();
    private final Map<String, OnnxTensor> pinnedOutputs = new HashMap<>();
    private final Set<String> unpinnedOutputs = new HashSet<>();
    private final Map<String, MemorySegment> allocatedUnpinned = new HashMap<>();
    private final List<OutputBinding> symbolPlanned = new ArrayList<>();

    /**
     * @param modelName   the model, for messages
     * @param env         the ONNX Runtime environment
     * @param session     the session to run
     * @param ownsSession whether {@link #close()} closes the session
     * @param inputs      the configured inputs
     * @param outputs     the configured outputs
     */
    OnnxEngine(final String modelName, final OrtEnvironment env, final OrtSession session, final boolean ownsSession,
        final InputBinding[] inputs, final OutputBinding[] outputs)
    {
        this.modelName = modelName;
        this.env = env;
        this.session = session;
        this.ownsSession = ownsSession;
        this.inputs = inputs;
        this.outputs = outputs;
    }

    @Override
    public void execute(final Batch batch) throws OrtException
    {
        try
        {
            bindInputs(batch);
            planOutputs(batch);
            if (pinnedOutputs.isEmpty() && unpinnedOutputs.isEmpty())
            {
                return;
            }
            run(batch);
        }
        finally
        {
            closeAll(inputTensors);
            closeAll(pinnedOutputs);
            unpinnedOutputs.clear();
            allocatedUnpinned.clear();
            symbolPlanned.clear();
        }
    }

    private void bindInputs(final Batch batch) throws OrtException
    {
        for (final InputBinding binding : inputs)
        {
            final BatchInput input = batch.input(binding.name());
            if (input == null)
            {
                continue;
            }
            inputTensors.put(binding.name(),
                TensorViews.wrap(env, input.data(), input.dataType(), binding.onnxShape(input.shape())));
        }
    }

    private void planOutputs(final Batch batch) throws OrtException
    {
        for (final OutputBinding binding : outputs)
        {
            if (!batch.isOutputRequested(binding.name()))
            {
                continue;
            }
            // String outputs have no size before the run; they are always encoded after it.
            final long[] shape = binding.dataType() == DataType.BYTES ? null : binding.plannedShape(batch);
            if (shape == null)
            {
                unpinnedOutputs.add(binding.name());
                continue;
            }
            final MemorySegment memory = batch.allocateOutput(binding.name(), shape);
            if (!memory.isNative())
            {
                // A heap segment cannot back an ONNX Runtime tensor in place (the Java API would copy it and write
                // the copy): run this output unpinned and copy it into the caller's memory afterwards.
                unpinnedOutputs.add(binding.name());
                allocatedUnpinned.put(binding.name(), memory);
                continue;
            }
            pinnedOutputs.put(binding.name(),
                TensorViews.wrap(env, memory, binding.dataType(), binding.onnxShape(shape)));
            if (binding.lastPlanUsedSymbols())
            {
                symbolPlanned.add(binding);
            }
        }
    }

    private void run(final Batch batch) throws OrtException
    {
        final OrtSession.Result result;
        try
        {
            result = session.run(inputTensors, unpinnedOutputs, pinnedOutputs);
        }
        catch (final OrtException e)
        {
            if (!symbolPlanned.isEmpty() && mentionsShape(e))
            {
                for (final OutputBinding binding : symbolPlanned)
                {
                    binding.distrustSymbols();
                    LOG.log(System.Logger.Level.WARNING, "model ''{0}'': output ''{1}'' did not have the shape its"
                        + " symbolic dimensions promised; it now runs unpinned and is copied ({2})", modelName,
                        binding.name(), e.getMessage());
                }
            }
            throw e;
        }
        try (result)
        {
            for (final OutputBinding binding : outputs)
            {
                if (!unpinnedOutputs.contains(binding.name()))
                {
                    continue;
                }
                final Optional<OnnxValue> value = result.get(binding.name());
                if (value.isEmpty() || !(value.get() instanceof OnnxTensor tensor))
                {
                    throw new IllegalStateException("model '" + modelName + "': ONNX Runtime returned no tensor for"
                        + " output '" + binding.name() + "'");
                }
                final long[] shape = binding.configShape(tensor.getInfo().getShape());
                if (binding.dataType() == DataType.BYTES)
                {
                    final byte[][] strings = TensorViews.strings(tensor);
                    final long size = TensorViews.encodedSize(strings);
                    TensorViews.encodeStrings(strings, batch.allocateOutput(binding.name(), shape, size));
                    COPIED_AFTER_RUN.add(2 * size);
                    continue;
                }
                MemorySegment memory = allocatedUnpinned.get(binding.name());
                if (memory == null)
                {
                    memory = batch.allocateOutput(binding.name(), shape);
                }
                TensorViews.copyOut(tensor, memory);
                // Two copies per byte: the Java API's out of the native tensor, then this one into the response.
                COPIED_AFTER_RUN.add(2 * memory.byteSize());
            }
        }
    }

    /** ONNX Runtime reports a pinned output of the wrong size as "OrtValue shape verification failed". */
    private static boolean mentionsShape(final OrtException failure)
    {
        return failure.getMessage() != null && failure.getMessage().toLowerCase(Locale.ROOT).contains("shape");
    }

    private static void closeAll(final Map<String, OnnxTensor> tensors)
    {
        for (final OnnxTensor tensor : tensors.values())
        {
            tensor.close();
        }
        tensors.clear();
    }

    /** @return the session this engine runs (shared or its own). */
    OrtSession session()
    {
        return session;
    }

    @Override
    public void close() throws OrtException
    {
        if (ownsSession)
        {
            session.close();
        }
    }
}
