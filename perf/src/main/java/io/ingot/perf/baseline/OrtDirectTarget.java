package io.ingot.perf.baseline;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import io.ingot.tensor.DataType;
import io.ingot.api.TensorMetadata;
import io.ingot.perf.LoadClient;
import io.ingot.perf.PerfException;
import io.ingot.perf.RequestInputs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The baseline a user has without a server: an ONNX Runtime session called directly on the caller's thread. One
 * session, shared by every client ({@link OrtSession#run} is thread-safe), with a fixed number of intra-op threads.
 * Each request builds its input tensors over its own direct buffers (no copy) and closes them and the outputs after
 * the run, as an application handling new data per request would. With a batch size above one, every request is a
 * pre-formed batch: the ideal a dynamic batcher can only approach.
 */
public final class OrtDirectTarget extends DirectTarget
{
    private final OrtEnvironment env = OrtEnvironment.getEnvironment();
    private final OrtSession session;
    private final Path modelFile;
    private final int intraOpThreads;

    /**
     * @param modelFile      the ONNX file
     * @param intraOpThreads threads inside one operator ({@code intra_op_num_threads})
     * @throws PerfException when the model cannot be loaded
     */
    public OrtDirectTarget(final Path modelFile, final int intraOpThreads)
    {
        this.modelFile = modelFile;
        this.intraOpThreads = intraOpThreads;
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions())
        {
            options.setIntraOpNumThreads(intraOpThreads);
            session = env.createSession(modelFile.toString(), options);
        }
        catch (final OrtException ex)
        {
            throw PerfException.failure("ONNX Runtime cannot load " + modelFile + ": " + ex.getMessage(), ex);
        }
    }

    @Override
    public String describe()
    {
        return "ONNX Runtime direct (" + modelFile.getFileName() + ", intra_op_threads=" + intraOpThreads + ")";
    }

    @Override
    public ModelInfo modelInfo()
    {
        try
        {
            return new ModelInfo(Integer.MAX_VALUE, tensors(session.getInputInfo()),
                new ArrayList<>(session.getOutputNames()));
        }
        catch (final OrtException ex)
        {
            throw PerfException.failure("cannot read the inputs of " + modelFile + ": " + ex.getMessage(), ex);
        }
    }

    private static List<TensorMetadata> tensors(final Map<String, NodeInfo> nodes)
    {
        final List<TensorMetadata> tensors = new ArrayList<>();
        for (final NodeInfo node : nodes.values())
        {
            if (!(node.getInfo() instanceof TensorInfo info))
            {
                throw PerfException.failure("input '" + node.getName() + "' is not a tensor");
            }
            final List<Long> shape = new ArrayList<>();
            for (final long dim : info.getShape())
            {
                shape.add(dim);
            }
            tensors.add(new TensorMetadata(node.getName(), type(info.type), shape));
        }
        return tensors;
    }

    private static DataType type(final OnnxJavaType type)
    {
        return switch (type)
        {
            case FLOAT -> DataType.FP32;
            case DOUBLE -> DataType.FP64;
            case INT8 -> DataType.INT8;
            case UINT8 -> DataType.UINT8;
            case INT16 -> DataType.INT16;
            case INT32 -> DataType.INT32;
            case INT64 -> DataType.INT64;
            case BOOL -> DataType.BOOL;
            case FLOAT16 -> DataType.FP16;
            case BFLOAT16 -> DataType.BF16;
            case STRING -> DataType.BYTES;
            default -> throw PerfException.failure("ONNX type " + type + " is not supported by this baseline");
        };
    }

    @Override
    protected LoadClient newClient(final RequestInputs inputs)
    {
        return new Client(inputs);
    }

    @Override
    public void close()
    {
        try
        {
            session.close();
        }
        catch (final OrtException ex)
        {
            throw new IllegalStateException("closing the ONNX Runtime session failed", ex);
        }
    }

    /** One caller: its own direct input buffers, tensors created per request. */
    private final class Client implements LoadClient
    {
        private final List<String> names = new ArrayList<>();
        private final List<ByteBuffer> buffers = new ArrayList<>();
        private final List<long[]> shapes = new ArrayList<>();
        private final List<OnnxJavaType> types = new ArrayList<>();
        private final Map<String, OnnxTensor> feed = new HashMap<>();

        Client(final RequestInputs inputs)
        {
            for (final RequestInputs.Tensor tensor : inputs.inputs())
            {
                final ByteBuffer buffer = ByteBuffer.allocateDirect(tensor.data().length)
                    .order(ByteOrder.nativeOrder());
                buffer.put(ByteBuffer.wrap(tensor.data()).order(ByteOrder.LITTLE_ENDIAN)).flip();
                names.add(tensor.name());
                buffers.add(buffer);
                shapes.add(tensor.shape());
                types.add(javaType(tensor.dataType()));
            }
        }

        private static OnnxJavaType javaType(final DataType type)
        {
            return switch (type)
            {
                case FP32 -> OnnxJavaType.FLOAT;
                case FP64 -> OnnxJavaType.DOUBLE;
                case INT8 -> OnnxJavaType.INT8;
                case UINT8 -> OnnxJavaType.UINT8;
                case INT16 -> OnnxJavaType.INT16;
                case INT32 -> OnnxJavaType.INT32;
                case INT64 -> OnnxJavaType.INT64;
                case BOOL -> OnnxJavaType.BOOL;
                default -> throw PerfException.failure("input type " + type + " is not supported by this baseline");
            };
        }

        @Override
        public String call()
        {
            try
            {
                for (int i = 0; i < names.size(); i++)
                {
                    feed.put(names.get(i), OnnxTensor.createTensor(env, buffers.get(i).duplicate(), shapes.get(i),
                        types.get(i)));
                }
                try (OrtSession.Result result = session.run(feed))
                {
                    return result.size() > 0 ? null : "ONNX Runtime returned no output";
                }
            }
            catch (final OrtException ex)
            {
                return "ONNX Runtime run failed: " + ex.getMessage();
            }
            finally
            {
                feed.values().forEach(OnnxTensor::close);
                feed.clear();
            }
        }

        @Override
        public void send(final Sink sink)
        {
            sink.completed(call());
        }
    }
}
