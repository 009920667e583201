package io.ingot.perf.baseline;

import io.ingot.api.TensorMetadata;
import io.ingot.perf.LoadClient;
import io.ingot.perf.PerfException;
import io.ingot.perf.RequestInputs;
import io.ingot.tensor.DataType;
import io.ingot.tensorflow.capi.TensorFlowC;
import io.ingot.tensorflow.capi.TensorFlowException;
import io.ingot.tensorflow.capi.TensorReleases;
import io.ingot.tensorflow.capi.TfSession;
import io.ingot.tensorflow.capi.TfStatus;
import io.ingot.tensorflow.proto.ConfigProto;
import io.ingot.tensorflow.savedmodel.DataTypes;
import io.ingot.tensorflow.savedmodel.InvalidSavedModelException;
import io.ingot.tensorflow.savedmodel.SavedModelReader;
import io.ingot.tensorflow.savedmodel.ServingSignature;
import io.ingot.tensorflow.savedmodel.SignatureTensor;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The baseline a user has without a server: TensorFlow's C API called directly on the caller's thread, each client
 * with a session of its own (the C API does not document {@code TF_SessionRun} as safe to call concurrently on one
 * session, so a careful application does not share one), all with the same intra/inter-op thread settings as Ingot's
 * sessions. A client keeps its request's tensors in aligned native memory, makes {@code TF_Tensor}s over them per
 * request (no copy, as Ingot does), runs, and deletes the outputs without reading them: strictly less work than a
 * server, which also copies every output into the response. With a batch size above one, each request is a
 * pre-formed batch: the ideal a dynamic batcher can only approach.
 */
public final class TfDirectTarget extends DirectTarget
{
    private final Path savedModel;
    private final ServingSignature signature;
    private final byte[] sessionConfig;
    private final int intraThreads;
    private final int interThreads;
    private final List<AutoCloseable> open = new CopyOnWriteArrayList<>();

    /**
     * @param savedModel   the SavedModel folder
     * @param intraThreads {@code intra_op_parallelism_threads}
     * @param interThreads {@code inter_op_parallelism_threads}
     * @throws PerfException when the SavedModel cannot be read
     */
    public TfDirectTarget(final Path savedModel, final int intraThreads, final int interThreads)
    {
        this.savedModel = savedModel;
        this.intraThreads = intraThreads;
        this.interThreads = interThreads;
        this.sessionConfig = ConfigProto.newBuilder().setIntraOpParallelismThreads(intraThreads)
            .setInterOpParallelismThreads(interThreads).build().toByteArray();
        try
        {
            signature = SavedModelReader.signature(savedModel, savedModel.getFileName().toString(), "", "");
        }
        catch (final InvalidSavedModelException e)
        {
            throw PerfException.failure(e.getMessage(), e);
        }
    }

    @Override
    public String describe()
    {
        return "TensorFlow C API direct (" + savedModel + ", intra_op_threads=" + intraThreads
            + ", inter_op_threads=" + interThreads + ", a session per client)";
    }

    @Override
    public ModelInfo modelInfo()
    {
        final List<TensorMetadata> tensors = new ArrayList<>();
        for (final SignatureTensor tensor : signature.inputs())
        {
            tensors.add(new TensorMetadata(tensor.name(), DataTypes.toIngot(tensor.dataType()),
                Arrays.stream(tensor.dims()).boxed().toList()));
        }
        return new ModelInfo(Integer.MAX_VALUE, tensors,
            signature.outputs().stream().map(SignatureTensor::name).toList());
    }

    @Override
    protected LoadClient newClient(final RequestInputs inputs)
    {
        final Client client = new Client(inputs);
        open.add(client);
        return client;
    }

    @Override
    public void close()
    {
        for (final AutoCloseable closeable : open)
        {
            try
            {
                closeable.close();
            }
            catch (final Exception e)
            {
                throw new IllegalStateException("closing a TensorFlow client failed", e);
            }
        }
        open.clear();
    }

    /** One caller: its own session, request tensors in aligned native memory, the run's arrays made once. */
    private final class Client implements LoadClient
    {
        private final Arena arena = Arena.ofShared();
        private final TfSession session;
        private final TfStatus status = new TfStatus();
        private final TensorReleases releases = new TensorReleases(arena);
        private final int inputCount;
        private final int outputCount;
        private final int[] types;
        private final MemorySegment[] data;
        private final MemorySegment[] dims;
        private final int[] ranks;
        private final MemorySegment feeds;
        private final MemorySegment feedValues;
        private final MemorySegment fetches;
        private final MemorySegment fetchValues;
        private boolean closed;

        Client(final RequestInputs inputs)
        {
            try
            {
                session = TfSession.load(savedModel, List.of(signature.tag()), sessionConfig);
            }
            catch (final TensorFlowException e)
            {
                throw PerfException.failure("TensorFlow cannot load " + savedModel + ": " + e.getMessage(), e);
            }
            final long alignment = TensorFlowC.TF_TensorDefaultAlignment();
            inputCount = inputs.inputs().size();
            outputCount = signature.outputs().size();
            types = new int[inputCount];
            data = new MemorySegment[inputCount];
            dims = new MemorySegment[inputCount];
            ranks = new int[inputCount];
            feeds = arena.allocate(TensorFlowC.TF_OUTPUT, Math.max(1, inputCount));
            feedValues = arena.allocate(ValueLayout.ADDRESS, Math.max(1, inputCount));
            fetches = arena.allocate(TensorFlowC.TF_OUTPUT, Math.max(1, outputCount));
            fetchValues = arena.allocate(ValueLayout.ADDRESS, Math.max(1, outputCount));
            for (int i = 0; i < inputCount; i++)
            {
                final RequestInputs.Tensor tensor = inputs.inputs().get(i);
                if (tensor.dataType() == DataType.BYTES)
                {
                    throw PerfException.failure("input '" + tensor.name() + "' is BYTES, which this baseline does"
                        + " not send");
                }
                types[i] = DataTypes.toTf(tensor.dataType());
                data[i] = arena.allocate(Math.max(1, tensor.data().length), alignment)
                    .asSlice(0, tensor.data().length);
                MemorySegment.copy(tensor.data(), 0, data[i], ValueLayout.JAVA_BYTE, 0, tensor.data().length);
                dims[i] = arena.allocateFrom(ValueLayout.JAVA_LONG, tensor.shape());
                ranks[i] = tensor.shape().length;
                place(feeds, i, session.tensor(signature.input(tensor.name()).graphTensor()));
            }
            for (int i = 0; i < outputCount; i++)
            {
                place(fetches, i, session.tensor(signature.outputs().get(i).graphTensor()));
            }
        }

        private static void place(final MemorySegment outputs, final int index, final TfSession.GraphTensor tensor)
        {
            final long offset = index * TensorFlowC.TF_OUTPUT.byteSize();
            outputs.set(ValueLayout.ADDRESS, offset, tensor.operation());
            outputs.set(ValueLayout.JAVA_INT, offset + 8, tensor.index());
        }

        @Override
        public String call()
        {
            int made = 0;
            try
            {
                for (int i = 0; i < inputCount; i++)
                {
                    releases.lent();
                    feedValues.setAtIndex(ValueLayout.ADDRESS, i, TensorFlowC.TF_NewTensor(types[i], dims[i],
                        ranks[i], data[i], data[i].byteSize(), releases.function(), MemorySegment.NULL));
                    made++;
                }
                TensorFlowC.TF_SessionRun(session.handle(), MemorySegment.NULL, feeds, feedValues, inputCount,
                    fetches, fetchValues, outputCount, MemorySegment.NULL, 0, MemorySegment.NULL, status.handle());
                if (!status.ok())
                {
                    status.check("TF_SessionRun");
                }
                return null;
            }
            catch (final TensorFlowException e)
            {
                return e.getMessage();
            }
            finally
            {
                for (int i = 0; i < made; i++)
                {
                    TensorFlowC.TF_DeleteTensor(feedValues.getAtIndex(ValueLayout.ADDRESS, i));
                }
                for (int i = 0; i < outputCount; i++)
                {
                    final MemorySegment output = fetchValues.getAtIndex(ValueLayout.ADDRESS, i);
                    if (output.address() != 0)
                    {
                        TensorFlowC.TF_DeleteTensor(output);
                        fetchValues.setAtIndex(ValueLayout.ADDRESS, i, MemorySegment.NULL);
                    }
                }
            }
        }

        @Override
        public void send(final Sink sink)
        {
            sink.completed(call());
        }

        @Override
        public void close()
        {
            if (closed)
            {
                return;
            }
            closed = true;
            session.close();
            status.close();
            arena.close();
        }
    }
}
