package io.ingot.tensorflow;

import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.InstanceContext;
import io.ingot.backend.SequenceBatchTensors;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.config.proto.ModelOutput;
import io.ingot.tensor.DataType;
import io.ingot.tensorflow.capi.TensorFlowC;
import io.ingot.tensorflow.capi.TensorFlowException;
import io.ingot.tensorflow.capi.TfSession;
import io.ingot.tensorflow.savedmodel.DataTypes;
import io.ingot.tensorflow.savedmodel.ServingSignature;
import io.ingot.tensorflow.savedmodel.SignatureTensor;

import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One loaded SavedModel version: its configuration, signature and settings, and the session opened at load to check
 * that TensorFlow can run the model, which the first instance takes. Every further instance loads a session of its
 * own: TensorFlow's C API does not document {@code TF_SessionRun} as safe to call concurrently on one session, so
 * sessions are never shared (Triton's {@code MAX_SESSION_SHARE_COUNT} above 1 is read and not followed).
 */
final class SavedModelBackend implements Backend
{
    private static final System.Logger LOG = System.getLogger(SavedModelBackend.class.getName());

    private final String model;
    private final long version;
    private final ModelConfig config;
    private final Path directory;
    private final SessionSettings settings;
    private final ServingSignature signature;
    private final List<String> initOps;
    private final AtomicReference<TfSession> unclaimed;

    /**
     * @param model     the model
     * @param version   its version
     * @param config    its configuration, already checked against {@code signature}
     * @param directory the SavedModel folder
     * @param settings  its settings
     * @param signature its serving signature
     * @param initOps   operations run on every new session
     * @param first     the session opened at load (checked), handed to the first instance
     */
    SavedModelBackend(final String model, final long version, final ModelConfig config, final Path directory,
        final SessionSettings settings, final ServingSignature signature, final List<String> initOps,
        final TfSession first)
    {
        this.model = model;
        this.version = version;
        this.config = config;
        this.directory = directory;
        this.settings = settings;
        this.signature = signature;
        this.initOps = initOps;
        this.unclaimed = new AtomicReference<>(first);
    }

    /**
     * Loads a session and resolves every signature tensor the configuration uses in its graph.
     *
     * @param model     the model, for messages
     * @param version   its version, for messages
     * @param config    its configuration
     * @param directory the SavedModel folder
     * @param settings  its settings
     * @param signature its serving signature
     * @param initOps   operations to run once on the session
     * @return the session
     * @throws ModelLoadException naming the model and TensorFlow's reason
     */
    static TfSession openSession(final String model, final long version, final ModelConfig config,
        final Path directory, final SessionSettings settings, final ServingSignature signature,
        final List<String> initOps) throws ModelLoadException
    {
        final TfSession session;
        try
        {
            session = TfSession.load(directory, List.of(signature.tag()), settings.configProto());
        }
        catch (final TensorFlowException e)
        {
            throw new ModelLoadException("model '" + model + "' version " + version + ": TensorFlow cannot load the"
                + " SavedModel in '" + directory.toAbsolutePath() + "': " + e.getMessage(), e);
        }
        try
        {
            for (final ModelInput input : config.getInputList())
            {
                resolve(model, version, session, signature.input(input.getName()), "input");
            }
            for (final ModelOutput output : config.getOutputList())
            {
                resolve(model, version, session, signature.output(output.getName()), "output");
            }
            for (final SequenceBatchTensors.Control control : SequenceBatchTensors.controls(config))
            {
                resolve(model, version, session, signature.input(control.name()), "input");
            }
            for (final SequenceBatchTensors.State state : SequenceBatchTensors.states(config))
            {
                resolve(model, version, session, signature.input(state.inputName()), "input");
                resolve(model, version, session, signature.output(state.outputName()), "output");
            }
            session.runTargets(initOps);
            return session;
        }
        catch (final TensorFlowException | IllegalArgumentException e)
        {
            session.close();
            throw new ModelLoadException("model '" + model + "' version " + version + ": " + e.getMessage(), e);
        }
        catch (final ModelLoadException | RuntimeException | Error e)
        {
            session.close();
            throw e;
        }
    }

    private static TfSession.GraphTensor resolve(final String model, final long version, final TfSession session,
        final SignatureTensor tensor, final String role) throws ModelLoadException
    {
        final TfSession.GraphTensor graph;
        try
        {
            graph = session.tensor(tensor.graphTensor());
        }
        catch (final IllegalArgumentException e)
        {
            throw new ModelLoadException("model '" + model + "' version " + version + ": signature " + role + " '"
                + tensor.name() + "' names graph tensor '" + tensor.graphTensor() + "', but " + e.getMessage(), e);
        }
        if (graph.dataType() != tensor.dataType())
        {
            throw new ModelLoadException("model '" + model + "' version " + version + ": signature " + role + " '"
                + tensor.name() + "' says " + DataTypes.name(tensor.dataType()) + ", but graph tensor '"
                + tensor.graphTensor() + "' is " + DataTypes.name(graph.dataType()));
        }
        return graph;
    }

    @Override
    public Engine createEngine(final InstanceContext context) throws ModelLoadException
    {
        if (context.kind() == ModelInstanceGroup.Kind.KIND_GPU)
        {
            LOG.log(System.Logger.Level.WARNING, "model ''{0}'' instance ''{1}'' is KIND_GPU, but the TensorFlow"
                + " library from tensorflow-core-native:linux-x86_64 runs on the CPU; it is served on the CPU", model,
                context.name());
        }
        TfSession session = unclaimed.getAndSet(null);
        if (session == null)
        {
            session = openSession(model, version, config, directory, settings, signature, initOps);
        }
        final Arena arena = Arena.ofShared();
        try
        {
            final boolean batching = config.getMaxBatchSize() > 0;
            final long alignment = TensorFlowC.TF_TensorDefaultAlignment();
            final List<InputFeed> inputs = new ArrayList<>();
            for (final ModelInput input : config.getInputList())
            {
                final long[] reshape = input.hasReshape()
                    ? input.getReshape().getShapeList().stream().mapToLong(Long::longValue).toArray() : null;
                inputs.add(new InputFeed(model, input.getName(), type(input.getDataTypeValue()), reshape, batching,
                    resolve(model, version, session, signature.input(input.getName()), "input"), alignment, arena));
            }
            // The sequence batcher's controls and state inputs are fed like configured inputs: the batch has them.
            for (final SequenceBatchTensors.Control control : SequenceBatchTensors.controls(config))
            {
                inputs.add(new InputFeed(model, control.name(), control.dataType(), null, batching,
                    resolve(model, version, session, signature.input(control.name()), "input"), alignment, arena));
            }
            final List<SequenceBatchTensors.State> states = SequenceBatchTensors.states(config);
            for (final SequenceBatchTensors.State state : states)
            {
                inputs.add(new InputFeed(model, state.inputName(), state.dataType(), null, batching,
                    resolve(model, version, session, signature.input(state.inputName()), "input"), alignment, arena));
            }
            final List<OutputFetch> outputs = new ArrayList<>();
            for (final ModelOutput output : config.getOutputList())
            {
                if (states.stream().noneMatch(state -> state.outputName().equals(output.getName())))
                {
                    outputs.add(new OutputFetch(model, output.getName(), type(output.getDataTypeValue()),
                        output.getDimsList().stream().mapToLong(Long::longValue).toArray(), output.hasReshape(),
                        batching, resolve(model, version, session, signature.output(output.getName()), "output"),
                        arena));
                }
            }
            // A state output is fetched on every batch (the runtime keeps it as the sequence's next state), checked
            // against the state's dims; a client may also ask for it when the configuration lists it as an output.
            for (final SequenceBatchTensors.State state : states)
            {
                outputs.add(OutputFetch.ofState(model, state, batching,
                    resolve(model, version, session, signature.output(state.outputName()), "output"), arena));
            }
            return new SavedModelEngine(model, session, inputs.toArray(InputFeed[]::new),
                outputs.toArray(OutputFetch[]::new), arena);
        }
        catch (final ModelLoadException | RuntimeException | Error e)
        {
            session.close();
            arena.close();
            throw e;
        }
    }

    private static DataType type(final int configType)
    {
        return DataType.fromConfigNumber(configType);
    }

    @Override
    public void close()
    {
        final TfSession never = unclaimed.getAndSet(null);
        if (never != null)
        {
            never.close();
        }
    }

    @Override
    public String toString()
    {
        return "tensorflow model '" + model + "' version " + version + " (" + directory + "; signature '"
            + signature.key() + "', " + settings.describe() + ")";
    }
}
