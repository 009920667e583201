package io.ingot.perf.baseline;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.types.Shape;
import ai.djl.ndarray.types.SparseFormat;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.engine.PtNDManager;
import ai.djl.pytorch.engine.PtSymbolBlock;
import ai.djl.pytorch.jni.IValue;
import ai.djl.pytorch.jni.IValueUtils;
import ai.djl.pytorch.jni.JniUtils;
import io.ingot.api.TensorMetadata;
import io.ingot.perf.LoadClient;
import io.ingot.perf.PerfException;
import io.ingot.perf.RequestInputs;
import io.ingot.tensor.DataType;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

/**
 * The baseline a user has without a server: libtorch called directly through DJL on the caller's thread, with one
 * TorchScript module shared by every client ({@code forward} may run on several threads at once) or one module per
 * client (as Ingot gives each instance its own), and the same calls Ingot's PyTorch backend makes: the input tensor
 * over the client's own direct buffer ({@code torch::from_blob}, no copy), {@code forward} under inference mode, the
 * output copied once into the client's output memory, and the request's tensors freed. With a batch size above one,
 * every request is a pre-formed batch: the ideal a dynamic batcher can only approach. The model has one FP32 input
 * {@code INPUT__0} and one FP32 output.
 */
public final class TorchDirectTarget extends DirectTarget
{
    private final Path modelFile;
    private final int features;
    private final PtNDManager manager;
    private final PtSymbolBlock module;
    private final boolean modulePerClient;

    /**
     * @param modelFile      the TorchScript file
     * @param features       the input's feature count (its dims after the batch dimension)
     * @param intraOpThreads  libtorch's intra-op threads (process-wide; Ingot's INTRA_OP_THREAD_COUNT sets the same)
     * @param modulePerClient whether each client loads a module of its own instead of sharing one
     * @throws PerfException when libtorch or the model cannot be loaded
     */
    public TorchDirectTarget(final Path modelFile, final int features, final int intraOpThreads,
        final boolean modulePerClient)
    {
        this.modelFile = modelFile;
        this.features = features;
        this.modulePerClient = modulePerClient;
        try
        {
            manager = (PtNDManager)Engine.getEngine("PyTorch").newBaseManager(Device.cpu());
            JniUtils.setNumThreads(intraOpThreads);
            module = load();
        }
        catch (final RuntimeException ex)
        {
            throw PerfException.failure("libtorch cannot load " + modelFile + ": " + ex.getMessage(), ex);
        }
    }

    private PtSymbolBlock load()
    {
        return JniUtils.loadModule(manager, modelFile.toAbsolutePath(), true, new String[0], new String[0], false);
    }

    @Override
    public String describe()
    {
        return "libtorch direct through DJL (" + modelFile.getFileName() + ", intra-op threads "
            + JniUtils.getNumThreads() + (modulePerClient ? ", a module per client" : ", one shared module") + ")";
    }

    @Override
    public ModelInfo modelInfo()
    {
        return new ModelInfo(Integer.MAX_VALUE, List.of(new TensorMetadata("INPUT__0", DataType.FP32,
            List.of(-1L, (long)features))), List.of("OUTPUT__0"));
    }

    @Override
    protected LoadClient newClient(final RequestInputs inputs)
    {
        return new Client(inputs.inputs().getFirst());
    }

    @Override
    public void close()
    {
        module.close();
        manager.close();
    }

    /** One caller: its own direct input buffer and output memory; tensors made and freed per request. */
    private final class Client implements LoadClient
    {
        private final PtSymbolBlock own;
        private final ByteBuffer input;
        private final Shape shape;
        private final Arena arena = Arena.ofShared();
        private MemorySegment output = MemorySegment.NULL;

        Client(final RequestInputs.Tensor tensor)
        {
            input = ByteBuffer.allocateDirect(tensor.data().length).order(ByteOrder.nativeOrder());
            input.put(ByteBuffer.wrap(tensor.data()).order(ByteOrder.LITTLE_ENDIAN)).flip();
            shape = new Shape(tensor.shape());
            own = modulePerClient ? load() : null;
        }

        @Override
        public String call()
        {
            try (PtNDManager scope = manager.newSubManager(Device.cpu()))
            {
                final PtNDArray x = JniUtils.createNdFromByteBuffer(scope, input.duplicate(), shape,
                    ai.djl.ndarray.types.DataType.FLOAT32, SparseFormat.DENSE, Device.cpu());
                try (IValue argument = IValue.from(x); IValue result = IValueUtils.forward(own != null ? own : module,
                    new IValue[] {argument}))
                {
                    final MemorySegment produced = MemorySegment.ofBuffer(result.toTensor(scope).toByteBuffer(true));
                    if (output.byteSize() < produced.byteSize())
                    {
                        output = arena.allocate(produced.byteSize(), 64);
                    }
                    MemorySegment.copy(produced, 0, output, 0, produced.byteSize());
                    return null;
                }
            }
            catch (final RuntimeException ex)
            {
                return "libtorch forward failed: " + ex.getMessage();
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
            arena.close();
            if (own != null)
            {
                own.close();
            }
        }
    }
}
