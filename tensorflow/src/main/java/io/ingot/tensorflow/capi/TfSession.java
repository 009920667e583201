package io.ingot.tensorflow.capi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;

/**
 * A TensorFlow session over one loaded SavedModel ({@code TF_LoadSessionFromSavedModel}) and the graph it filled in.
 * It resolves the signature's graph tensors ({@code "op:index"}) to {@code TF_Output}s and runs initialisation
 * targets; batches are run by the engine that owns it, through {@link #handle()}. Closing closes the session
 * ({@code TF_CloseSession}, {@code TF_DeleteSession}) and deletes the graph.
 *
 * <p>Not thread-safe: TensorFlow's C API does not document {@code TF_SessionRun} as safe to call concurrently on one
 * session, so each model instance has a session of its own and only its thread uses it.
 */
public final class TfSession implements AutoCloseable
{
    /**
     * One graph tensor: an operation's output.
     *
     * @param name      the tensor's name as the signature gives it ({@code "op:index"})
     * @param operation the {@code TF_Operation*}
     * @param index     the output index
     * @param dataType  the output's {@code TF_DataType} in the graph
     */
    public record GraphTensor(String name, MemorySegment operation, int index, int dataType)
    {
    }

    private final TfStatus status = new TfStatus();
    private final MemorySegment graph;
    private final MemorySegment session;
    private boolean closed;

    private TfSession(final MemorySegment graph, final MemorySegment session)
    {
        this.graph = graph;
        this.session = session;
    }

    /**
     * Loads a SavedModel into a new session.
     *
     * @param exportDir   the SavedModel folder
     * @param tags        the tag set of the MetaGraphDef to load (exactly that set)
     * @param configProto a serialized {@code tensorflow.ConfigProto} for the session (may be empty)
     * @return the session
     * @throws TensorFlowUnavailableException when TensorFlow's library cannot be used
     * @throws TensorFlowException            when TensorFlow cannot load the model (its own message)
     */
    public static TfSession load(final Path exportDir, final List<String> tags, final byte[] configProto)
    {
        TensorFlowC.requireAvailable();
        final MemorySegment options = TensorFlowC.TF_NewSessionOptions();
        MemorySegment graph = MemorySegment.NULL;
        try (Arena call = Arena.ofConfined(); TfStatus status = new TfStatus())
        {
            if (configProto.length > 0)
            {
                final MemorySegment proto = call.allocate(configProto.length);
                MemorySegment.copy(configProto, 0, proto, ValueLayout.JAVA_BYTE, 0, configProto.length);
                TensorFlowC.TF_SetConfig(options, proto, configProto.length, status.handle());
                status.check("TF_SetConfig");
            }
            final MemorySegment tagArray = call.allocate(ValueLayout.ADDRESS, Math.max(1, tags.size()));
            for (int i = 0; i < tags.size(); i++)
            {
                tagArray.setAtIndex(ValueLayout.ADDRESS, i, call.allocateFrom(tags.get(i)));
            }
            graph = TensorFlowC.TF_NewGraph();
            final MemorySegment session = TensorFlowC.TF_LoadSessionFromSavedModel(options, MemorySegment.NULL,
                call.allocateFrom(exportDir.toAbsolutePath().toString()), tagArray, tags.size(), graph,
                MemorySegment.NULL, status.handle());
            status.check("TF_LoadSessionFromSavedModel");
            if (session.address() == 0)
            {
                throw new TensorFlowException("TF_LoadSessionFromSavedModel", TensorFlowC.TF_UNKNOWN,
                    "returned no session and no error");
            }
            final TfSession loaded = new TfSession(graph, session);
            graph = MemorySegment.NULL;
            return loaded;
        }
        finally
        {
            if (graph.address() != 0)
            {
                TensorFlowC.TF_DeleteGraph(graph);
            }
            TensorFlowC.TF_DeleteSessionOptions(options);
        }
    }

    /**
     * Resolves a graph tensor.
     *
     * @param name {@code "op:index"}, or {@code "op"} for output 0
     * @return the operation output
     * @throws IllegalArgumentException when the graph has no such operation or the operation no such output
     */
    public GraphTensor tensor(final String name)
    {
        final int colon = name.lastIndexOf(':');
        String op = name;
        int index = 0;
        if (colon > 0)
        {
            try
            {
                index = Integer.parseInt(name.substring(colon + 1));
                op = name.substring(0, colon);
            }
            catch (final NumberFormatException notAnIndex)
            {
                op = name;
            }
        }
        final MemorySegment operation = operation(op);
        if (operation.address() == 0)
        {
            throw new IllegalArgumentException("the graph has no operation '" + op + "' (named by tensor '" + name
                + "')");
        }
        final int outputs = TensorFlowC.TF_OperationNumOutputs(operation);
        if (index < 0 || index >= outputs)
        {
            throw new IllegalArgumentException("operation '" + op + "' has " + outputs + " output(s), so tensor '"
                + name + "' does not exist");
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment output = call.allocate(TensorFlowC.TF_OUTPUT);
            output.set(ValueLayout.ADDRESS, 0, operation);
            output.set(ValueLayout.JAVA_INT, 8, index);
            return new GraphTensor(name, operation, index, TensorFlowC.TF_OperationOutputType(output));
        }
    }

    private MemorySegment operation(final String op)
    {
        try (Arena call = Arena.ofConfined())
        {
            return TensorFlowC.TF_GraphOperationByName(graph, call.allocateFrom(op));
        }
    }

    /**
     * Runs operations for their effect ({@code TF_INIT_OPS_FILE}'s initialisation ops): no feeds, no fetches.
     *
     * @param targets operation names
     * @throws IllegalArgumentException when the graph lacks one of them
     * @throws TensorFlowException      when running them fails
     */
    public void runTargets(final List<String> targets)
    {
        if (targets.isEmpty())
        {
            return;
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment operations = call.allocate(ValueLayout.ADDRESS, targets.size());
            for (int i = 0; i < targets.size(); i++)
            {
                final MemorySegment operation = operation(targets.get(i));
                if (operation.address() == 0)
                {
                    throw new IllegalArgumentException("the graph has no operation '" + targets.get(i) + "'");
                }
                operations.setAtIndex(ValueLayout.ADDRESS, i, operation);
            }
            TensorFlowC.TF_SessionRun(session, MemorySegment.NULL, MemorySegment.NULL, MemorySegment.NULL, 0,
                MemorySegment.NULL, MemorySegment.NULL, 0, operations, targets.size(), MemorySegment.NULL,
                status.handle());
            status.check("TF_SessionRun (targets " + targets + ")");
        }
    }

    /** @return the {@code TF_Session*} */
    public MemorySegment handle()
    {
        return session;
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            TensorFlowC.TF_CloseSession(session, status.handle());
            TensorFlowC.TF_DeleteSession(session, status.handle());
            TensorFlowC.TF_DeleteGraph(graph);
        }
        finally
        {
            status.close();
        }
    }
}
