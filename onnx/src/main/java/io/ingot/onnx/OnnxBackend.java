package io.ingot.onnx;

import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.InstanceContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.config.proto.ModelOutput;
import io.ingot.onnx.capi.OrtSession;
import io.ingot.onnx.capi.OrtSessionOptions;

import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One loaded ONNX model version: its session options, its signature, and either the session all its instances
 * share or the first of their own sessions (opened at load to check the model, handed to the first instance).
 */
final class OnnxBackend implements Backend
{
    private static final System.Logger LOG = System.getLogger(OnnxBackend.class.getName());

    private final String modelName;
    private final long version;
    private final ModelConfig config;
    private final Path file;
    private final SessionSettings settings;
    private final ModelSignature signature;
    private final OrtSession shared;
    private final AtomicReference<OrtSession> unclaimed;

    /**
     * @param modelName model name
     * @param version   version
     * @param config    its configuration, already checked against {@code signature}
     * @param file      the model file
     * @param settings  session settings
     * @param session   the session opened at load
     * @param signature the model's inputs and outputs
     */
    OnnxBackend(final String modelName, final long version, final ModelConfig config, final Path file,
        final SessionSettings settings, final OrtSession session, final ModelSignature signature)
    {
        this.modelName = modelName;
        this.version = version;
        this.config = config;
        this.file = file;
        this.settings = settings;
        this.signature = signature;
        this.shared = settings.shareSession() ? session : null;
        this.unclaimed = new AtomicReference<>(settings.shareSession() ? null : session);
    }

    @Override
    public Engine createEngine(final InstanceContext context)
    {
        if (context.kind() == ModelInstanceGroup.Kind.KIND_GPU)
        {
            LOG.log(System.Logger.Level.WARNING, "model ''{0}'' instance ''{1}'' is KIND_GPU, but Ingot''s ONNX"
                + " Runtime backend runs on the CPU; it is served on the CPU", modelName, context.name());
        }
        OrtSession session = shared;
        if (session == null)
        {
            session = unclaimed.getAndSet(null);
            if (session == null)
            {
                try (OrtSessionOptions options = settings.createOptions())
                {
                    session = OrtSession.open(file, options);
                }
            }
        }
        final Arena arena = Arena.ofShared();
        try
        {
            return new OnnxEngine(modelName, session, shared == null, inputBindings(arena), outputBindings(arena),
                arena, settings.arenaShrinkage());
        }
        catch (final RuntimeException e)
        {
            arena.close();
            if (shared == null)
            {
                session.close();
            }
            throw e;
        }
    }

    private InputBinding[] inputBindings(final Arena arena)
    {
        final boolean batching = config.getMaxBatchSize() > 0;
        // The sequence batcher's controls and state inputs are bound like configured inputs: the batch has them.
        final List<ModelInput> inputs = SequenceBatcherTensors.allInputs(config);
        final InputBinding[] bindings = new InputBinding[inputs.size()];
        for (int i = 0; i < bindings.length; i++)
        {
            final ModelInput input = inputs.get(i);
            bindings[i] = new InputBinding(input, signature.input(input.getName()), batching,
                arena.allocateFrom(input.getName()));
        }
        return bindings;
    }

    private OutputBinding[] outputBindings(final Arena arena)
    {
        final boolean batching = config.getMaxBatchSize() > 0;
        final Map<String, OutputBinding.SymbolSource> symbols = new HashMap<>();
        for (final TensorSignature input : signature.inputs())
        {
            for (int axis = 0; axis < input.rank(); axis++)
            {
                final String symbol = input.dimNames()[axis];
                if (!symbol.isEmpty())
                {
                    symbols.putIfAbsent(symbol, new OutputBinding.SymbolSource(input.name(), axis));
                }
            }
        }
        // A state output is always produced (the batch asks for it): it is the sequence's next state.
        final List<ModelOutput> outputs = SequenceBatcherTensors.allOutputs(config);
        final Map<String, String> stateInputs = new HashMap<>();
        for (final var state : config.getSequenceBatching().getStateList())
        {
            stateInputs.put(state.getOutputName(), state.getInputName());
        }
        final OutputBinding[] bindings = new OutputBinding[outputs.size()];
        for (int i = 0; i < bindings.length; i++)
        {
            final ModelOutput output = outputs.get(i);
            // A configured output that is also a state's output is the state (Triton returns it to the client too).
            bindings[i] = new OutputBinding(output, signature.output(output.getName()), batching, symbols,
                arena.allocateFrom(output.getName()), stateInputs.get(output.getName()));
        }
        return bindings;
    }

    /** @return the session settings, for tests and logs. */
    SessionSettings settings()
    {
        return settings;
    }

    @Override
    public void close()
    {
        try
        {
            if (shared != null)
            {
                shared.close();
            }
        }
        finally
        {
            final OrtSession never = unclaimed.getAndSet(null);
            if (never != null)
            {
                never.close();
            }
        }
    }

    @Override
    public String toString()
    {
        return "onnxruntime model '" + modelName + "' version " + version + " (" + file + "; " + settings.describe()
            + ")";
    }
}
